package dev.loci.pathway.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loci.pathway.PathwayTrace;
import dev.loci.spi.Event;
import dev.loci.spi.JournalEntry;
import dev.loci.spi.SubjectMention;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What erasure does to a pathway trace: it keeps its identity (pathway id, uid, version chain, task
 * class, file path, signal class), its 32-bucket vector (hashed counts, not readable text), its
 * times, counts and retirement; every free-text and list field the spec lists as a PII surface
 * (section 6.3: reducer summary, final verdict; and the ladder attempts, chunks, signals, hits,
 * calls, consensus, flags, hints, fingerprints and unknown fields that carry review output) is
 * emptied, and its subjects go. The journal scrub and the in-memory erase both use {@link #erased},
 * so replay and a live erase agree.
 */
final class PathwayErasure {
  /** The text an erased trace's free-text fields keep. */
  static final String ERASED_TEXT = "[erased]";

  private PathwayErasure() {}

  static List<SubjectMention> mentions(Event e, PathwayTrace written) {
    return List.of(mention(written));
  }

  static SubjectMention mention(PathwayTrace t) {
    return new SubjectMention(
        "pathway_trace", t.traceUid(), t.version(), t.subjectIds(), t.parentTraceUid());
  }

  static PathwayTrace erased(PathwayTrace t) {
    return t.toBuilder()
        .ladderAttempts(List.of())
        .kbChunks(List.of())
        .observerSignals(List.of())
        .bridgeHits(List.of())
        .subPipelineCalls(List.of())
        .auditConsensus(Optional.empty())
        .reducerSummary(ERASED_TEXT)
        .finalVerdict(ERASED_TEXT)
        .semanticFlags(List.of())
        .typeHintsUsed(List.of())
        .bugFingerprints(List.of())
        .subjectIds(List.of())
        .unknownFields(Map.of())
        .build();
  }

  /** The event with every trace it writes whose key is in {@code keys} erased. */
  static Event scrub(JournalEntry entry, Event e, Set<String> keys) {
    JsonNode data = e.data();
    ObjectNode out = data.deepCopy();
    if (data.has("trace")) {
      PathwayTrace t = PathwayTrace.fromJson(data.path("trace").toString());
      if (keys.contains(SubjectMention.key(entry.namespace(), t.traceUid()))) {
        out.set("trace", PathwayRecords.tree(erased(t)));
      }
    } else if (data.has("traces")) {
      var traces = out.putArray("traces");
      for (JsonNode n : data.path("traces")) {
        PathwayTrace t = PathwayTrace.fromJson(n.toString());
        traces.add(
            keys.contains(SubjectMention.key(entry.namespace(), t.traceUid()))
                ? PathwayRecords.tree(erased(t))
                : n);
      }
    }
    Event scrubbed = new Event(e.type(), out);
    return scrubbed.json().equals(e.json()) ? e : scrubbed;
  }

  /** The traces of an import event. */
  static List<PathwayTrace> imported(JsonNode data) {
    List<PathwayTrace> out = new ArrayList<>();
    data.path("traces").forEach(n -> out.add(PathwayTrace.fromJson(n.toString())));
    return out;
  }
}
