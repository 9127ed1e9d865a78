declare module "http_ece" {
  interface DecryptParams {
    version: "aes128gcm";
    privateKey: import("node:crypto").ECDH;
    authSecret: string;
  }
  export function decrypt(buffer: Buffer, params: DecryptParams): Buffer;
}
