package dev.loci.internal;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loci.Trace;
import dev.loci.spi.Event;
import dev.loci.spi.JournalEntry;
import dev.loci.spi.SubjectMention;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What the trace layer tells the subject index and the eraser: the subjects a trace event names (a
 * top-level {@code subject_ids} array in the trace's content), and the scrubbed form of an event
 * whose trace is erased.
 */
final class TraceSubjects {
  private TraceSubjects() {}

  /** The content an erased trace keeps. */
  static final String ERASED_CONTENT = "{\"erased\":true}";

  private static final String SUBJECT_KIND = "trace";

  /**
   * A trace names subjects by a top-level {@code subject_ids} array of strings in its content; its
   * revisions and updates keep the subjects of what they revise.
   */
  static List<SubjectMention> mentions(JournalEntry entry, Event e, Optional<Trace> parsed) {
    Trace hint = (Trace) e.decoded().orElse(parsed.orElse(null));
    return switch (e.type()) {
      case TraceLayer.ADDED, TraceLayer.REVISED -> {
        Trace t =
            hint != null ? hint : TraceRecords.parseEvent(e.json(), entry.namespace(), entry.ts());
        List<String> ids = subjectIds(t.content());
        if (ids.isEmpty() && t.predecessorUid().isEmpty()) {
          // a new record that names no subject and continues none: no subject holds it, so there
          // is nothing to tell (most writes; the subject index need not look it up)
          yield List.of();
        }
        yield List.of(
            new SubjectMention(
                SUBJECT_KIND,
                t.uid(),
                1,
                ids,
                t.predecessorUid().map(p -> SubjectMention.key(entry.namespace(), p))));
      }
      case TraceLayer.UPDATED -> {
        String uid = hint != null ? hint.uid() : TraceRecords.text(e.data(), "uid");
        String content = hint != null ? hint.content() : TraceRecords.text(e.data(), "content");
        yield List.of(
            new SubjectMention(SUBJECT_KIND, uid, 0, subjectIds(content), Optional.empty()));
      }
      default ->
          List.of(
              SubjectMention.touch(
                  SUBJECT_KIND, hint != null ? hint.uid() : TraceRecords.text(e.data(), "uid")));
    };
  }

  /**
   * The {@code subject_ids} a trace's content names at its top level, if any. Runs on every applied
   * write, so it scans the content once and skips every other member without building anything.
   */
  static List<String> subjectIds(String content) {
    return content.contains("\"subject_ids\"")
        ? TopLevelStrings.of(content, "subject_ids")
        : List.of();
  }

  /**
   * An erased trace keeps its uid, predecessor, times and replay count; its content becomes {@link
   * #ERASED_CONTENT}, its tags go and it is retired.
   */
  static Event scrub(JournalEntry entry, Event e, Set<String> recordKeys) {
    Trace hint = (Trace) e.decoded().orElse(null);
    String uid = hint != null ? hint.uid() : TraceRecords.text(e.data(), "uid");
    if (!recordKeys.contains(SubjectMention.key(entry.namespace(), uid))) {
      return e;
    }
    Event out =
        switch (e.type()) {
          case TraceLayer.ADDED, TraceLayer.REVISED ->
              TraceRecords.event(
                  e.type(),
                  erased(
                      hint != null
                          ? hint
                          : TraceRecords.parseEvent(e.json(), entry.namespace(), entry.ts())));
          case TraceLayer.UPDATED -> {
            ObjectNode d = ((ObjectNode) e.data()).deepCopy();
            d.put("content", ERASED_CONTENT);
            yield new Event(e.type(), d);
          }
          default -> e;
        };
    return out.json().equals(e.json()) ? e : out;
  }

  static Trace erased(Trace t) {
    return new Trace(
        t.uid(),
        t.namespace(),
        ERASED_CONTENT,
        t.predecessorUid(),
        t.createdAt(),
        t.updatedAt(),
        true,
        t.replayCount(),
        List.of());
  }
}
