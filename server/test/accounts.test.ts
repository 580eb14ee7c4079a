import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { useService } from './harness.js';

describe('accounts', () => {
  const svc = useService();

  test('register answers 201 with a JWT and the user, never the password', async () => {
    const res = await svc.http.post('/register').send({ email: 'Ada@Example.com', password: 'secret1', display_name: 'Ada' }).expect(201);
    assert.match(res.body.jwt, /^[\w-]+\.[\w-]+\.[\w-]+$/);
    assert.deepEqual(Object.keys(res.body.user).sort(), ['created_at', 'display_name', 'email', 'id']);
    assert.equal(res.body.user.email, 'Ada@Example.com');
    assert.equal(res.body.user.display_name, 'Ada');
    assert.equal(JSON.stringify(res.body).includes('secret1'), false);
  });

  test('the password is stored only as a hash', async () => {
    await svc.http.post('/register').send({ email: 'hash@example.com', password: 'plain-text-pw' }).expect(201);
    const row = await svc.ctx.db('users').where({ email_normalized: 'hash@example.com' }).first();
    assert.notEqual(row.password_hash, 'plain-text-pw');
    assert.match(row.password_hash, /^\$2[aby]\$/);
  });

  test('a duplicate email is 409, also in different letter case', async () => {
    await svc.http.post('/register').send({ email: 'dup@example.com', password: 'secret1' }).expect(201);
    const same = await svc.http.post('/register').send({ email: 'dup@example.com', password: 'secret1' }).expect(409);
    assert.equal(same.body.statusCode, 409);
    assert.equal(same.body.error, 'Conflict');
    const upper = await svc.http.post('/register').send({ email: 'DUP@Example.COM', password: 'other-pw' }).expect(409);
    assert.match(upper.body.message, /already exists/);
  });

  test('a 5-character password is 400 naming the field; 6 characters work', async () => {
    const res = await svc.http.post('/register').send({ email: 'short@example.com', password: '12345' }).expect(400);
    assert.match(res.body.message, /body\.password/);
    assert.deepEqual(res.body.details, [{ path: 'body.password', message: 'must be at least 6 characters' }]);
    await svc.http.post('/register').send({ email: 'short@example.com', password: '123456' }).expect(201);
  });

  test('missing or malformed fields are 400 naming them', async () => {
    const res = await svc.http.post('/register').send({ password: 'secret1' }).expect(400);
    assert.match(res.body.message, /body\.email: is required/);
    const bad = await svc.http.post('/register').send({ email: 'not-an-email', password: 'secret1' }).expect(400);
    assert.match(bad.body.message, /body\.email/);
  });

  test('a 200-character password works for register and login', async () => {
    const password = 'p'.repeat(200);
    await svc.http.post('/register').send({ email: 'long@example.com', password }).expect(201);
    const res = await svc.http.post('/login').send({ email: 'long@example.com', password }).expect(200);
    assert.ok(res.body.jwt);
    assert.equal(res.body.user.email, 'long@example.com');
  });

  test('a password differing from the real one only after byte 72 is refused', async () => {
    const base = 'x'.repeat(80);
    await svc.http
      .post('/register')
      .send({ email: 'bytes@example.com', password: `${base}A` })
      .expect(201);
    await svc.http
      .post('/login')
      .send({ email: 'bytes@example.com', password: `${base}B` })
      .expect(401);
    await svc.http
      .post('/login')
      .send({ email: 'bytes@example.com', password: `${'x'.repeat(72)}` })
      .expect(401);
    await svc.http
      .post('/login')
      .send({ email: 'bytes@example.com', password: `${base}A` })
      .expect(200);
  });

  test('login with a wrong password or an unknown email is 401 without saying which', async () => {
    await svc.http.post('/register').send({ email: 'who@example.com', password: 'secret1' }).expect(201);
    const wrongPassword = await svc.http.post('/login').send({ email: 'who@example.com', password: 'secret2' }).expect(401);
    const unknownEmail = await svc.http.post('/login').send({ email: 'nobody@example.com', password: 'secret1' }).expect(401);
    assert.equal(wrongPassword.body.message, unknownEmail.body.message);
    assert.equal(wrongPassword.body.statusCode, 401);
  });

  test('login accepts the email in any letter case', async () => {
    await svc.http.post('/register').send({ email: 'Case@Example.com', password: 'secret1' }).expect(201);
    await svc.http.post('/login').send({ email: 'case@EXAMPLE.com', password: 'secret1' }).expect(200);
  });
});
