// /docs/api serves Swagger UI with the two files of swagger-ui-dist its page loads, and nothing else
// of the package (issue 28, finding 8): its stock index.html pointed at the petstore.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { useService } from './harness.js';

describe('docs: Swagger UI files', () => {
  const svc = useService();

  test('every file the page loads is served', async () => {
    const page = await svc.http.get('/docs/api').expect(200);
    const assets = [...page.text.matchAll(/(?:href|src)="(\/docs\/api\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    assert.deepEqual(assets.sort(), ['/docs/api/assets/swagger-ui-bundle.js', '/docs/api/assets/swagger-ui.css']);
    const css = await svc.http.get('/docs/api/assets/swagger-ui.css').expect(200);
    assert.match(css.headers['content-type'] ?? '', /^text\/css/);
    const js = await svc.http.get('/docs/api/assets/swagger-ui-bundle.js').expect(200);
    assert.match(js.headers['content-type'] ?? '', /javascript/);
    await svc.http.get('/docs/api/swagger-init.js').expect(200);
  });

  test("the package's other files are 404: the stock page pointing at the petstore first", async () => {
    const stock = [
      'index.html',
      'swagger-initializer.js',
      'oauth2-redirect.html',
      'oauth2-redirect.js',
      'index.css',
      'index.js',
      'absolute-path.js',
      'swagger-ui.js',
      'swagger-ui-es-bundle.js',
      'swagger-ui-standalone-preset.js',
      'swagger-ui-bundle.js.map',
      'swagger-ui.css.map',
      'favicon-32x32.png',
      'package.json',
      'README.md',
      '',
    ];
    const served: string[] = [];
    for (const name of stock) {
      const res = await svc.http.get(`/docs/api/assets/${name}`);
      if (res.status !== 404 || /petstore/i.test(res.text)) served.push(`${name || '(folder)'}: ${res.status}`);
    }
    assert.deepEqual(served, []);
  });
});
