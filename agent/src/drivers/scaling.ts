// How big a screenshot or zoom PNG is and how it maps back to the screen. Pure, so the rules are unit
// tested: `scale` is PNG pixels per screen pixel, and a PNG point (px, py) is (round(px / scale),
// round(py / scale)) on the screen (for a zoom, relative to the region's corner).
import type { MaxSize, Region, Size } from './driver.js';

export interface ImagePlan extends Size {
  scale: number;
}

/** A zoom's PNG may be at most this many pixels a side (a 1x1 region "fit" to 100,000 px would not fit in memory). */
export const MAX_ZOOM_SIDE = 8192;

/** The factor that makes `size` fit `max` (the smaller of the given sides' ratios); 1 when nothing limits. */
function fitFactor(size: Size, max: MaxSize): number {
  const ratios: number[] = [];
  if (max.maxWidth !== undefined) ratios.push(max.maxWidth / size.width);
  if (max.maxHeight !== undefined) ratios.push(max.maxHeight / size.height);
  return ratios.length === 0 ? 1 : Math.min(...ratios);
}

function plan(size: Size, factor: number): ImagePlan {
  return {
    width: Math.max(1, Math.round(size.width * factor)),
    height: Math.max(1, Math.round(size.height * factor)),
    scale: Number(factor.toFixed(6)),
  };
}

/** A screenshot is scaled down to fit `max`, never up, keeping the aspect ratio. */
export function screenshotPlan(screen: Size, max: MaxSize = {}): ImagePlan {
  return plan(screen, Math.min(1, fitFactor(screen, max)));
}

/** A zoom is the region scaled (up or down) to fit `max` when given; the region must lie on the screen. */
export function zoomPlan(screen: Size, region: Region, max: MaxSize = {}): ImagePlan {
  if (region.x + region.width > screen.width || region.y + region.height > screen.height) {
    throw new Error(
      `zoom region ${region.width}x${region.height} at (${region.x}, ${region.y}) is not on the screen (${screen.width}x${screen.height}): ` +
        `x + width must be at most ${screen.width} and y + height at most ${screen.height}`,
    );
  }
  const result = plan(region, fitFactor(region, max));
  if (result.width > MAX_ZOOM_SIDE || result.height > MAX_ZOOM_SIDE) {
    throw new Error(
      `zoom would make a ${result.width}x${result.height} PNG; at most ${MAX_ZOOM_SIDE} pixels a side: give a larger region or a smaller max_width / max_height`,
    );
  }
  return result;
}

/** ImageMagick arguments that cut `region` out of the screen (when given) and resize it to `plan` (when it differs). */
export function imageArgs(source: Size, plan: ImagePlan, region?: Region): string[] {
  const args: string[] = [];
  if (region) args.push('-crop', `${region.width}x${region.height}+${region.x}+${region.y}`, '+repage');
  const from = region ?? source;
  // `!`: exactly this size; the plan already kept the aspect ratio and chose the rounding.
  if (plan.width !== from.width || plan.height !== from.height) args.push('-resize', `${plan.width}x${plan.height}!`);
  return args;
}
