/**
 * Governed memory (the AtoCore "Memory vs Entities" document, DESIGN.md section 2): typed memories
 * with a status lifecycle and provenance, one review queue in which a person promotes or rejects,
 * conflicts that are flagged and never silently resolved, trusted project state that only a
 * reviewer sets, and context packs assembled in trust order within a token budget. Entry point:
 * {@link dev.loci.govern.GovernedMemory}.
 */
package dev.loci.govern;
