package dev.loci.subjects.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loci.spi.BatchObserver;
import dev.loci.spi.Event;
import dev.loci.spi.JournalEntry;
import dev.loci.spi.Layer;
import dev.loci.spi.SubjectMention;
import dev.loci.spi.SubjectRecords;
import dev.loci.subjects.internal.SubjectIndex.Rec;
import dev.loci.subjects.internal.SubjectIndex.Subject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The subject layer's write path: turns what a committed batch wrote, as the {@link SubjectRecords}
 * layers report it, and the legal reads it records, into changes of the {@link SubjectIndex} and
 * one audit entry per subject touched. {@link #observe} runs on every applied write, under the
 * engine's exclusive access; the change it returns runs later, under the subject layer's index lock
 * (see {@link SubjectLayer}): it looks records up without building keys and allocates little. Not
 * thread-safe.
 */
final class BatchRecorder {
  private static final String LEGAL_READ = "audit.legal_read";

  /** What {@link #observe} returns for a batch that touches no subject. */
  static final Runnable NOTHING = () -> {};

  /** Where the audit entry of one subject for one batch goes. */
  interface Notes {
    void note(
        Subject s,
        JournalEntry entry,
        String actor,
        String action,
        List<AuditEntry.Touched> records);
  }

  private final SubjectIndex index;
  private final Notes notes;
  private Map<String, Layer> layers = Map.of();
  private List<String> recordLayers = List.of();

  BatchRecorder(SubjectIndex index, Notes notes) {
    this.index = index;
    this.notes = notes;
  }

  /** Learns the engine's layers (see {@link BatchObserver#bind}). */
  void bind(List<Layer> all) {
    Map<String, Layer> byName = new LinkedHashMap<>();
    List<String> holders = new ArrayList<>();
    for (Layer l : all) {
      byName.put(l.name(), l);
      if (l instanceof SubjectRecords) {
        holders.add(l.name());
      }
    }
    layers = byName;
    recordLayers = List.copyOf(holders);
  }

  /** Returns the change that records what {@code entry} did (see {@link BatchObserver#observe}). */
  Runnable observe(JournalEntry entry) {
    List<Object> found = null;
    for (Event e : entry.events()) {
      Layer l = layers.get(e.layer());
      if (l instanceof SubjectRecords r) {
        for (SubjectMention m : r.mentions(entry, e)) {
          if (found == null) {
            found = new ArrayList<>();
          }
          found.add(new Found(l.name(), e.type(), m));
        }
      } else if (e.type().equals(LEGAL_READ)) {
        if (found == null) {
          found = new ArrayList<>();
        }
        found.add(e.data());
      }
    }
    if (found == null) {
      return NOTHING;
    }
    List<Object> all = found;
    return () -> record(entry, all);
  }

  private record Found(String layer, String type, SubjectMention mention) {}

  /** What one batch did to one subject: the actions and records, for one audit entry. */
  private static final class Touches {
    final List<String> actions = new ArrayList<>(1);
    final List<AuditEntry.Touched> records = new ArrayList<>(1);
    String actor;

    void add(String action, String by, AuditEntry.Touched record) {
      if (!actions.contains(action)) {
        actions.add(action);
      }
      actor = by;
      records.add(record);
    }

    String action() {
      return actions.size() == 1 ? actions.get(0) : String.join(",", actions);
    }
  }

  private void record(JournalEntry entry, List<Object> found) {
    Map<Subject, Touches> bySubject = new LinkedHashMap<>(4);
    String ns = entry.namespace().value();
    long seq = entry.seq();
    for (Object o : found) {
      if (o instanceof Found f) {
        SubjectMention m = f.mention();
        boolean names = !m.subjectIds().isEmpty();
        // a version that names subjects is held whatever was held before: one lookup, no miss
        Rec rec =
            names
                ? index.findOrAdd(f.layer(), m.kind(), entry.namespace(), m.recordId())
                : index.find(f.layer(), ns, m.recordId());
        Rec pred =
            m.inheritsFrom().isEmpty() ? null : index.find(f.layer(), m.inheritsFrom().get());
        if (!names
            && (rec == null || rec.holders() == 0)
            && (pred == null || pred.holders() == 0)) {
          continue;
        }
        if (rec == null) {
          rec = index.findOrAdd(f.layer(), m.kind(), entry.namespace(), m.recordId());
        }
        for (String id : m.subjectIds()) {
          hold(rec, index.forId(id), seq);
        }
        for (int i = 0; pred != null && i < pred.holders(); i++) {
          hold(rec, pred.holder(i), seq);
        }
        rec.version(seq, entry.ts());
        AuditEntry.Touched t = new AuditEntry.Touched(m.kind(), m.recordId(), m.version());
        for (int i = 0; i < rec.holders(); i++) {
          bySubject
              .computeIfAbsent(rec.holder(i), k -> new Touches())
              .add(f.type(), entry.actor(), t);
        }
      } else {
        JsonNode read = (JsonNode) o;
        String action = "legal_read:" + read.path("action").asText();
        String actor = "legal:" + read.path("holder").asText();
        for (JsonNode id : read.path("records")) {
          for (String layer : recordLayers) {
            Rec rec = index.find(layer, ns, id.asText());
            for (int i = 0; rec != null && i < rec.holders(); i++) {
              bySubject
                  .computeIfAbsent(rec.holder(i), k -> new Touches())
                  .add(action, actor, new AuditEntry.Touched(rec.kind, id.asText(), 0));
            }
          }
        }
      }
    }
    bySubject.forEach((s, t) -> notes.note(s, entry, t.actor, t.action(), t.records));
  }

  private static void hold(Rec rec, Subject s, long seq) {
    if (rec.hold(s, seq)) {
      s.records.add(rec);
    }
  }
}
