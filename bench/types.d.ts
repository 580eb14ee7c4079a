// The parts of autocannon the benchmarks use (it ships no types; this avoids an @types package).
declare module 'autocannon' {
  namespace autocannon {
    interface Request {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string;
      setupRequest?: (req: Request) => Request;
    }
    interface Options {
      url: string;
      method?: 'GET' | 'POST';
      connections?: number;
      duration?: number;
      headers?: Record<string, string>;
      body?: string;
      requests?: Request[];
      /** Each answer's body must equal it; the others are counted in `mismatches`. */
      expectBody?: string;
    }
    interface Histogram {
      average: number;
      total: number;
      p50: number;
      p99: number;
    }
    interface Result {
      requests: Histogram;
      latency: Histogram;
      errors: number;
      timeouts: number;
      non2xx: number;
      mismatches: number;
    }
  }
  function autocannon(options: autocannon.Options): Promise<autocannon.Result>;
  export default autocannon;
}
