package dev.loci;

import java.util.List;

/**
 * The result of checking every journal segment and snapshot of a data directory.
 *
 * @param segments how many journal segments were read
 * @param batches how many good batches they hold
 * @param snapshots how many snapshot files were checked
 * @param damage every problem found, in file order
 */
public record VerifyReport(int segments, long batches, int snapshots, List<Damage> damage) {
  /** Copies the list. */
  public VerifyReport {
    damage = List.copyOf(damage);
  }

  /** True when nothing committed is missing or unreadable; a torn tail alone is not damage. */
  public boolean ok() {
    return damage.stream().noneMatch(d -> d.kind().lossy());
  }
}
