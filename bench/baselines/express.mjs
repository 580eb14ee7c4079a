// Baseline: an Express 5 hello-world answering with res.json. PORT from the env.
// Plain JavaScript, started with plain `node`.
import express from 'express';

const app = express();
app.get('/', (_req, res) => {
  res.json({ hello: 'world' });
});
app.listen(Number(process.env.PORT), '127.0.0.1');
