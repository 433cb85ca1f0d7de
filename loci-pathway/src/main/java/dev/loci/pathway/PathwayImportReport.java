package dev.loci.pathway;

/**
 * What an import did.
 *
 * @param imported traces stored
 * @param skipped traces whose {@code trace_uid} the namespace already held, left as they were
 * @param legacyAssigned imported traces that had no {@code trace_uid} and were given one, marked
 *     {@code legacy}
 * @param redactions personal-data matches replaced in the imported traces
 */
public record PathwayImportReport(int imported, int skipped, int legacyAssigned, int redactions) {}
