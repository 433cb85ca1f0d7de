package dev.loci.internal;

import dev.loci.Namespace;
import dev.loci.NamespaceScope;
import dev.loci.Page;
import dev.loci.Trace;
import dev.loci.TraceQuery;
import dev.loci.Traces;
import dev.loci.spi.Event;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The projection {@link TraceLayer}'s events build: the traces of each namespace by uid and in
 * listing order, the searches over them, and the events of a batch applied over them into an
 * overlay before they are stored. Its snapshot records and their restore are here too, so that
 * restoring inserts in listing order.
 *
 * <p>Not thread-safe by itself: the engine serializes access as {@link dev.loci.spi.Layer}
 * describes.
 */
final class TraceProjection {
  /**
   * Listing order: creation time, then uid, then namespace. Hand-written: it is on every insert.
   */
  private static final Comparator<Trace> ORDER =
      (a, b) -> {
        int c = a.createdAt().compareTo(b.createdAt());
        if (c != 0) {
          return c;
        }
        c = a.uid().compareTo(b.uid());
        return c != 0 ? c : a.namespace().value().compareTo(b.namespace().value());
      };

  /** The traces of one namespace, by uid and in listing order. */
  private static final class Shelf {
    final Map<String, Trace> byUid = new HashMap<>();
    final SortedChunks<Trace> ordered = new SortedChunks<>(ORDER);
    final Map<String, String> firstSuccessor = new HashMap<>(); // predecessor uid -> revision uid

    void put(Trace t) {
      Trace old = byUid.put(t.uid(), t);
      if (old != null && ORDER.compare(old, t) != 0) {
        ordered.remove(old);
      }
      ordered.add(t); // replaces the old version where it sorts the same (always, in practice)
      t.predecessorUid().ifPresent(p -> firstSuccessor.putIfAbsent(p, t.uid()));
    }
  }

  private final Map<Namespace, Shelf> shelves = new HashMap<>();
  private final Map<String, Namespace> restoreNamespaces = new HashMap<>();

  // ---------------------------------------------------------------- reads

  /** The trace {@code uid} in {@code ns}, if any. */
  Optional<Trace> find(Namespace ns, String uid) {
    Shelf shelf = shelves.get(ns);
    return shelf == null ? Optional.empty() : Optional.ofNullable(shelf.byUid.get(uid));
  }

  /** The uid of the first revision of {@code predecessorUid} in {@code ns}, if it has one. */
  Optional<String> firstSuccessor(Namespace ns, String predecessorUid) {
    return Optional.ofNullable(shelves.get(ns)).map(s -> s.firstSuccessor.get(predecessorUid));
  }

  /** Runs a search; see {@link TraceQuery}. */
  Page<Trace> search(TraceQuery q) {
    Optional<Trace> after = q.cursor().map(TraceRecords::decodeCursor);
    List<Trace> matches = new ArrayList<>();
    for (Map.Entry<Namespace, Shelf> e : shelves.entrySet()) {
      if (!q.scope().contains(e.getKey())) {
        continue;
      }
      Iterable<Trace> from =
          after.isPresent() ? e.getValue().ordered.tailFrom(after.get()) : e.getValue().ordered;
      int found = 0;
      for (Trace t : from) {
        if (matches(t, q)) {
          matches.add(t);
          if (++found > q.limit()) {
            break; // one beyond the page tells whether a next page exists
          }
        }
      }
    }
    matches.sort(ORDER);
    if (matches.size() <= q.limit()) {
      return new Page<>(matches, Optional.empty());
    }
    List<Trace> page = matches.subList(0, q.limit());
    return new Page<>(page, Optional.of(TraceRecords.encodeCursor(page.get(page.size() - 1))));
  }

  /** See {@link TraceLayer#namespaceCounts()}. */
  List<Traces.NamespaceCount> namespaceCounts() {
    List<Traces.NamespaceCount> out = new ArrayList<>(shelves.size());
    shelves.forEach(
        (ns, shelf) -> {
          if (!shelf.ordered.isEmpty()) {
            out.add(
                new Traces.NamespaceCount(
                    ns, shelf.byUid.size(), shelf.ordered.last().createdAt()));
          }
        });
    out.sort(Comparator.comparing(Traces.NamespaceCount::namespace));
    return out;
  }

  /** How many traces, retired ones included, lie in {@code scope}. */
  long count(NamespaceScope scope) {
    long n = 0;
    for (Map.Entry<Namespace, Shelf> e : shelves.entrySet()) {
      if (scope.contains(e.getKey())) {
        n += e.getValue().byUid.size();
      }
    }
    return n;
  }

  /** How many traces, retired ones included, there are in every namespace. */
  long total() {
    long n = 0;
    for (Shelf shelf : shelves.values()) {
      n += shelf.byUid.size();
    }
    return n;
  }

  /** Every trace of {@code ns} in listing order, for export. */
  List<Trace> all(Namespace ns) {
    Shelf shelf = shelves.get(ns);
    return shelf == null ? List.of() : List.copyOf(shelf.ordered);
  }

  private static boolean matches(Trace t, TraceQuery q) {
    if (t.retired() && !q.includeRetired()) {
      return false;
    }
    for (String tag : q.tags()) {
      if (!t.hasTag(tag)) {
        return false;
      }
    }
    if (q.contentContains().isPresent() && !t.content().contains(q.contentContains().get())) {
      return false;
    }
    if (q.createdFrom().isPresent() && t.createdAt().isBefore(q.createdFrom().get())) {
      return false;
    }
    return q.createdBefore().isEmpty() || t.createdAt().isBefore(q.createdBefore().get());
  }

  // ---------------------------------------------------------------- events

  /**
   * Applies one event to {@code overlay}, reading through to the projection. Events the layer just
   * decided carry the resulting trace ({@link Event#decoded()}), which saves parsing their data;
   * events read from the journal are parsed. {@code at} is the batch's time, or null. The trace a
   * new-trace event adds goes to {@code parsed} too.
   *
   * @throws IllegalStateException if the event does not apply: a new trace exists, a trace changed
   *     does not, or the type is unknown
   */
  void applyTo(
      Map<String, Trace> overlay, Namespace ns, Instant at, Event e, Map<Event, Trace> parsed) {
    Trace hint = (Trace) e.decoded().orElse(null);
    switch (e.type()) {
      case TraceLayer.ADDED, TraceLayer.REVISED -> {
        Trace t = newTrace(overlay, ns, at, e);
        parsed.put(e, t);
        overlay.put(t.uid(), t);
      }
      case TraceLayer.UPDATED -> {
        Trace t =
            current(overlay, ns, hint != null ? hint.uid() : TraceRecords.text(e.data(), "uid"));
        overlay.put(
            t.uid(),
            hint != null
                ? t.withContent(hint.content(), hint.updatedAt())
                : t.withContent(
                    TraceRecords.text(e.data(), "content"),
                    Timestamps.parse(TraceRecords.text(e.data(), "updated_at"))));
      }
      case TraceLayer.RETIRED -> {
        Trace t =
            current(overlay, ns, hint != null ? hint.uid() : TraceRecords.text(e.data(), "uid"));
        overlay.put(t.uid(), t.asRetired());
      }
      case TraceLayer.REPLAYED -> {
        Trace t =
            current(overlay, ns, hint != null ? hint.uid() : TraceRecords.text(e.data(), "uid"));
        overlay.put(t.uid(), t.replayed());
      }
      default -> throw new IllegalStateException("unknown event type '" + e.type() + "'");
    }
  }

  /** The trace a {@code trace.added} or {@code trace.revised} event adds, which must be new. */
  Trace newTrace(Map<String, Trace> overlay, Namespace ns, Instant at, Event e) {
    Trace hint = (Trace) e.decoded().orElse(null);
    Trace t = hint != null ? hint : TraceRecords.parseEvent(e.json(), ns, at);
    if (overlay.containsKey(t.uid()) || find(ns, t.uid()).isPresent()) {
      throw new IllegalStateException("trace '" + t.uid() + "' already exists in " + ns);
    }
    return t;
  }

  private Trace current(Map<String, Trace> overlay, Namespace ns, String uid) {
    Trace t = overlay.get(uid);
    if (t == null) {
      t = find(ns, uid).orElse(null);
    }
    if (t == null) {
      throw new IllegalStateException("trace '" + uid + "' does not exist in " + ns);
    }
    return t;
  }

  /** Stores {@code t} in its namespace {@code ns}, replacing the version it has. */
  void put(Namespace ns, Trace t) {
    shelves.computeIfAbsent(ns, k -> new Shelf()).put(t);
  }

  /** Stores every trace of {@code traces}, all in {@code ns}, in order. */
  void putAll(Namespace ns, Collection<Trace> traces) {
    Shelf shelf = shelves.computeIfAbsent(ns, k -> new Shelf());
    traces.forEach(shelf::put);
  }

  // ---------------------------------------------------------------- snapshot and erasure

  /** Snapshot records in listing order per namespace, so restoring inserts in sorted order. */
  Iterable<String> capture() {
    List<Trace> all = new ArrayList<>();
    shelves.entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .forEach(e -> all.addAll(e.getValue().ordered));
    return () ->
        all.stream()
            .map(t -> TraceRecords.appendJson(new StringBuilder(256), t, true).toString())
            .iterator();
  }

  /** Stores the trace of one snapshot record (of version 1). */
  void restore(String record) {
    Trace t = TraceRecords.parse(record, restoreNamespaces);
    put(t.namespace(), t);
  }

  void clear() {
    shelves.clear();
    restoreNamespaces.clear();
  }

  /** Replaces each trace named by a record key ({@code namespace/uid}) with its erased form. */
  void erase(Set<String> recordKeys) {
    for (String key : recordKeys) {
      int slash = key.indexOf('/');
      Shelf shelf = shelves.get(Namespace.of(key.substring(0, slash)));
      Trace t = shelf == null ? null : shelf.byUid.get(key.substring(slash + 1));
      if (t != null) {
        shelf.put(TraceSubjects.erased(t));
      }
    }
  }
}
