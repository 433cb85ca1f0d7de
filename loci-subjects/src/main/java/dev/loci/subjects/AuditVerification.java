package dev.loci.subjects;

import java.util.List;

/**
 * What {@link Subjects#verifyAudit} found.
 *
 * @param logs how many subject logs were checked
 * @param entries how many entries they hold
 * @param problems the first problem of each bad log, naming its file and line; empty when every
 *     chain is intact and complete
 */
public record AuditVerification(int logs, long entries, List<String> problems) {
  /** Copies the problems. */
  public AuditVerification {
    problems = List.copyOf(problems);
  }

  /** Whether every chain checked is intact and complete. */
  public boolean ok() {
    return problems.isEmpty();
  }
}
