package dev.loci.pathway;

/**
 * What an insert or a revise stored.
 *
 * @param trace the trace as persisted, after redaction
 * @param redactions how many personal-data matches were replaced in {@code reducer_summary} and
 *     {@code final_verdict}
 */
public record PathwayWrite(PathwayTrace trace, int redactions) {}
