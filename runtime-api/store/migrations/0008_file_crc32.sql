-- Hex CRC-32 (IEEE, as zlib.crc32) of each file's content: computed from the bytes for files written whole, and
-- combined from the parts' CRC-32s at upload completion (no second read), so every file, multi-part uploads
-- included, carries a checksum a client can verify a download against. Null for rows written before this column.
alter table files add column crc32 text;
