// Kept so that imports written against the old path still resolve; the module is ../files/atomic.ts.
export * from '../files/atomic.js';
