// The part of the service configuration that bindings read. server/config.ts builds a superset of it.
export interface RuntimeConfig {
  publicBaseUrl: string;
  /** Storage quota per organization, in bytes. */
  quotaBytes: number;
  uploadTtlMs: number;
  trashRetentionMs: number;
  /** Cap on files_read_text / files_write_text, in bytes. */
  textFileMaxBytes: number;
  /** Organizations one person may create: per rolling hour, and in all. */
  organizationCreation: { perHour: number; perPerson: number };
}
