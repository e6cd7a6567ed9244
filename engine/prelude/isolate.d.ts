// What the prelude's modules use of the isolate's JavaScript that the es2024 library does not declare: descriptors
// and handlers written with a null prototype (so a script's Object.prototype getters never reach them), and
// JSON.isRawJSON (V8 has it; the guards test for it).
interface PropertyDescriptor {
  __proto__?: null;
}
interface ProxyHandler<T extends object> {
  __proto__?: null;
}
interface JSON {
  isRawJSON?(value: unknown): boolean;
}
