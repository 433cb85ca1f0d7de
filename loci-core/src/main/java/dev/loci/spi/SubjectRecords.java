package dev.loci.spi;

import java.util.List;
import java.util.Set;

/**
 * A {@link Layer} whose records can name data subjects (people). The subject index asks it which
 * records each event writes and which subjects they name, and erasure asks it to make chosen
 * records' content unreadable: in journal events ({@link #scrub}) and in its state and files
 * ({@link #erase}).
 *
 * <p>Both erasure steps must agree: applying scrubbed events from the start must build the same
 * state that {@link #erase} leaves, and both must keep every record's id, version chain and links,
 * so that replay still applies every later event and every other record keeps its history.
 */
public interface SubjectRecords {

  /**
   * The record versions {@code event} (one of this layer's) writes or changes, each with the
   * subjects it names. Called on every applied event; must be cheap and must not fail.
   */
  List<SubjectMention> mentions(JournalEntry entry, Event event);

  /**
   * {@code event} of batch {@code entry} with the content of the records in {@code recordKeys}
   * ({@link SubjectMention#key}) replaced by an erased placeholder, ids, versions and links kept;
   * {@code event} itself when it writes none of them. Idempotent: scrubbing a scrubbed event
   * returns it unchanged.
   */
  Event scrub(JournalEntry entry, Event event, Set<String> recordKeys);

  /**
   * Makes the content of the records in {@code recordKeys} unreadable in this layer's state and in
   * any files it keeps, as applying scrubbed events would. Called with exclusive access.
   */
  void erase(Set<String> recordKeys);
}
