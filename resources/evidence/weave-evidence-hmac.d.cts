// Types of weave-evidence-hmac.cjs for the TypeScript that imports it (src/core/sha256.ts).
/** SHA-256 of `bytes` as 32 bytes. */
export declare function sha256(bytes: Uint8Array): Uint8Array;
/** SHA-256 of `text`'s UTF-8 bytes as 64 lowercase hex digits. */
export declare function sha256Hex(text: string): string;
/** HMAC-SHA256 of `text` under `key` (both UTF-8) as lowercase hex. */
export declare function hmacHex(key: string, text: string): string;
/** `count` random bytes from the kernel as hex. */
export declare function randomHex(count: number): string;
