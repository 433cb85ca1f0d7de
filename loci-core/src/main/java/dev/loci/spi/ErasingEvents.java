package dev.loci.spi;

import java.util.Map;
import java.util.Set;

/**
 * A {@link Layer} some of whose events order an erasure that whoever applies them carries out:
 * every process that applies the journal (each server over a shared journal) erases the records
 * from the state and files of the layers that hold them ({@link SubjectRecords#erase}) and replaces
 * its snapshots, at that event's place in the sequence. Used for erasure over a journal that other
 * processes share ({@link Journal#rewriteAndAppend}), where the erasing process cannot reach the
 * others' projections.
 */
public interface ErasingEvents {

  /**
   * The records {@code event} (one of this layer's) erases when applied, as record keys ({@link
   * SubjectMention#key}) by the name of the layer that holds them; empty when it erases nothing.
   * Called on every applied event of this layer: must be cheap and must not fail.
   */
  Map<String, Set<String>> erases(Event event);
}
