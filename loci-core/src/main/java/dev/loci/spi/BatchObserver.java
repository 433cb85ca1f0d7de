package dev.loci.spi;

import java.util.List;

/**
 * A {@link Layer} that sees every committed batch, not only its own events: the subject index,
 * which follows the records of every other layer. The engine binds it to the other layers once and
 * calls {@link #observe} for each batch after the owning layers prepared theirs, applying the
 * result in the same step.
 */
public interface BatchObserver {

  /** Called once before recovery with every layer of the engine, this one included. */
  void bind(List<Layer> layers);

  /**
   * Returns the change that records what {@code entry} did; must not change state itself, and the
   * returned change must not fail.
   */
  Runnable observe(JournalEntry entry);
}
