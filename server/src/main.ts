// `tsx src/main.ts` starts the service; the same as `mind-service start`.
process.argv.splice(2, process.argv.length - 2, 'start');
await import('./cli.js');

export {};
