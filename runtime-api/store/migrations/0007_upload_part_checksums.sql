-- Upload parts carry a CRC-32 (always computed: zlib's is about four times cheaper than SHA-256, which was the
-- largest avoidable CPU cost of the upload path in bench/transfers.ts) and a SHA-256 only when one was computed:
-- for single-part uploads (it becomes the file's sha256) or when the client sent Content-Digest: sha-256.
-- crc32 stays nullable for parts recorded before this migration.
alter table upload_parts add column crc32 text;
alter table upload_parts alter column sha256 drop not null;
