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
  /** Archive import and export (files_import, files_export). */
  archive: ArchiveLimits;
}

export interface ArchiveLimits {
  /** Entries one archive may hold (folders and refused entries count), and files one export may hold. */
  maxEntries: number;
  /** Bytes the entries of one import may expand to in all. */
  maxExpandedBytes: number;
  /** Largest expanded-to-compressed ratio of one zip entry (entries under 1 MiB expanded are not held to it). */
  maxEntryRatio: number;
  /** Largest ratio of an archive's expanded bytes to its own size (under 1 MiB expanded, not held to it). */
  maxRatio: number;
  /** Longest path an entry may have, `into` included, in characters (the file-name rule's 255 at most). */
  maxPathChars: number;
  /** How long an export's download URL works. */
  exportTtlMs: number;
}
