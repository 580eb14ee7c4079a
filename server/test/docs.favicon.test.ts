// /favicon.ico: browsers ask for it on every page of the guides and Swagger UI; it is a real icon,
// with the security headers the guides have.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { crc32, inflateSync } from 'node:zlib';
import { useService } from './harness.js';

/** The images of an ICO file, each checked to be a PNG whose chunks have the right CRCs. */
function icoImages(ico: Buffer) {
  assert.equal(ico.readUInt16LE(0), 0, 'reserved');
  assert.equal(ico.readUInt16LE(2), 1, 'type icon');
  const count = ico.readUInt16LE(4);
  return Array.from({ length: count }, (_, i) => {
    const entry = 6 + 16 * i;
    const width = ico.readUInt8(entry) || 256;
    const height = ico.readUInt8(entry + 1) || 256;
    const image = ico.subarray(ico.readUInt32LE(entry + 12), ico.readUInt32LE(entry + 12) + ico.readUInt32LE(entry + 8));
    assert.equal(image.subarray(0, 8).toString('hex'), '89504e470d0a1a0a', 'a PNG');
    const chunks: Record<string, Buffer> = {};
    for (let at = 8; at < image.length; ) {
      const length = image.readUInt32BE(at);
      const type = image.subarray(at + 4, at + 8).toString('latin1');
      const data = image.subarray(at + 8, at + 8 + length);
      assert.equal(image.readUInt32BE(at + 8 + length), crc32(image.subarray(at + 4, at + 8 + length)), `${type} CRC`);
      chunks[type] = Buffer.concat([chunks[type] ?? Buffer.alloc(0), data]);
      at += 12 + length;
    }
    assert.ok(chunks.IEND, 'IEND');
    return { width, height, ihdr: chunks.IHDR!, pixels: inflateSync(chunks.IDAT!) };
  });
}

describe('/favicon.ico', () => {
  const svc = useService();

  test('is a 32x32 icon, cached for a day', async () => {
    const res = await svc.http
      .get('/favicon.ico')
      .buffer(true)
      .parse((r, done) => {
        const parts: Buffer[] = [];
        r.on('data', (c: Buffer) => parts.push(c));
        r.on('end', () => done(null, Buffer.concat(parts)));
      })
      .expect(200);
    assert.equal(res.headers['content-type'], 'image/x-icon');
    assert.equal(res.headers['cache-control'], 'public, max-age=86400');
    const [image, ...more] = icoImages(res.body as Buffer);
    assert.equal(more.length, 0);
    assert.equal(image!.width, 32);
    assert.equal(image!.height, 32);
    assert.equal(image!.ihdr.readUInt32BE(0), 32);
    assert.equal(image!.pixels.length, 32 * (1 + 32 * 4), 'RGBA rows of 32 pixels');
    await svc.http.head('/favicon.ico').expect(200).expect('Content-Type', 'image/x-icon');
  });

  test("has the guides' security headers", async () => {
    const icon = await svc.http.get('/favicon.ico').expect(200);
    const guide = await svc.http.get('/docs/api').expect(200);
    for (const name of [
      'content-security-policy',
      'x-content-type-options',
      'x-frame-options',
      'cross-origin-resource-policy',
      'referrer-policy',
      'x-request-id',
    ]) {
      assert.ok(guide.headers[name], `the guide has ${name}`);
      if (name === 'x-request-id') assert.ok(icon.headers[name], name);
      else assert.equal(icon.headers[name], guide.headers[name], name);
    }
    assert.equal(icon.headers['x-content-type-options'], 'nosniff');
  });

  test('the guides and Swagger UI link it', async () => {
    for (const path of ['/docs', '/docs/api']) {
      const page = await svc.http.get(path).expect(200);
      assert.match(page.text, /<link rel="icon" href="\/favicon\.ico">/, path);
    }
  });

  test('other paths near it are still 404s', async () => {
    const res = await svc.http.get('/favicon.png').expect(404);
    assert.equal(res.body.message, 'Route GET /favicon.png not found');
    await svc.http.post('/favicon.ico').expect(404);
  });
});
