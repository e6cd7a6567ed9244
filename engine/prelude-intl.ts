// The limits and charges of the prelude's guards on ICU (engine/prelude/intl.js, whose header holds what was measured),
// handed to them as values; the tests read them here.

/** Longest input (UTF-16 units, summed over a list) an ICU-backed method accepts. */
export const MAX_INTL_INPUT = 1 << 20;

/**
 * Bytes charged per object (RSS per object kept, less the heap's part, measured with 5,000 of each in a host): what the
 * constructors make, what Segmenter#segment and its iterator make (plus per input character), the interval
 * formatter a DateTimeFormat builds on its first formatRange, and a Locale from maximize/minimize.
 */
export const INTL_BYTES = {
  DateTimeFormat: 28 * 1024,
  NumberFormat: 2048,
  Collator: 2048,
  PluralRules: 2048,
  RelativeTimeFormat: 9 * 1024,
  ListFormat: 1024,
  DisplayNames: 3 * 1024,
  Segmenter: 6 * 1024,
  Locale: 1024,
  DurationFormat: 2048,
  segments: 2048,
  segmentIterator: 4096,
  perInputChar: 3,
  dateRange: 56 * 1024,
} as const;
