package dev.loci.pathway.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loci.Namespace;
import dev.loci.NamespaceScope;
import dev.loci.NotFoundException;
import dev.loci.pathway.PathwayStats;
import dev.loci.pathway.PathwayTrace;
import dev.loci.pathway.PathwayVec;
import dev.loci.pathway.ScoredTrace;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The pathway traces of every namespace and the queries over them (spec section 6.2): the state
 * that {@link PathwayLayer} builds from its events, kept apart from the layer's decisions and event
 * handling so each reads on its own.
 *
 * <p>Per namespace, a {@link Shelf}: every trace by {@code trace_uid} (all versions, in insertion
 * order), the pathways (buckets) by {@code pathway_id} with their retired flag, the head versions
 * in a {@link VecIndex}, and the running count of redactions. Not thread-safe by itself: the engine
 * serializes changes and guards reads (see {@link dev.loci.spi.Layer}).
 */
abstract class PathwayShelves {
  /**
   * Hot-swap order (spec section 6.2): success rate, then replay count, both descending; then the
   * newest first and the uid, so the order is total.
   */
  public static final Comparator<PathwayTrace> HOTSWAP_ORDER =
      Comparator.comparingDouble(PathwayShelves::successRate)
          .thenComparingInt(PathwayTrace::replayCount)
          .thenComparing(PathwayTrace::createdAt)
          .reversed()
          .thenComparing(PathwayTrace::traceUid);

  final Map<Namespace, Shelf> shelves = new HashMap<>();

  /**
   * The traces of one namespace, each packed by {@link TraceCodec} into one array: every version by
   * {@code trace_uid} in insertion order, with the unknown fields of the few traces that have any
   * beside them.
   */
  static final class Shelf {
    private final Map<String, byte[]> byUid = new LinkedHashMap<>();
    private final Map<String, Map<String, JsonNode>> unknown = new HashMap<>();
    private final TraceCodec.Out scratch = new TraceCodec.Out();
    private StringPool pool = new StringPool();
    final Map<String, Bucket> buckets = new LinkedHashMap<>();
    final VecIndex heads = new VecIndex();
    long redactions;
    Instant lastUpdated = Instant.EPOCH;

    /** Stores {@code t}, a new trace or a new state of one, in its pathway and the head index. */
    void put(PathwayTrace t) {
      Bucket b = buckets.computeIfAbsent(t.pathwayId(), k -> new Bucket());
      PathwayTrace stored = b.retired && !t.retired() ? t.toBuilder().retired(true).build() : t;
      if (store(stored) == null) {
        b.uids.add(stored.traceUid());
      }
      if (stored.supersededAt().isEmpty()) {
        heads.put(stored.traceUid(), stored.pathwayVec(), stored.retired());
      } else {
        heads.remove(stored.traceUid());
      }
      if (stored.retired() && !b.retired) {
        retire(stored.pathwayId());
      }
    }

    /** Replaces the stored state of {@code t} with the same pathway, vector and flags. */
    void replace(PathwayTrace t) {
      store(t);
    }

    private byte[] store(PathwayTrace t) {
      Map<String, JsonNode> fields = t.unknownFields();
      if (fields.isEmpty()) {
        unknown.remove(t.traceUid());
      } else {
        unknown.put(t.traceUid(), fields);
      }
      return byUid.put(t.traceUid(), TraceCodec.encode(t, pool, scratch));
    }

    void retire(String pathwayId) {
      Bucket b = buckets.get(pathwayId);
      b.retired = true;
      for (String uid : b.uids) {
        byte[] packed = byUid.get(uid);
        if (!TraceCodec.retired(packed)) {
          byUid.put(uid, TraceCodec.asRetired(packed));
        }
        heads.retire(uid);
      }
    }

    /** Counts one replay on {@code uid}. */
    void replayed(String uid, boolean succeeded) {
      byUid.put(uid, TraceCodec.withReplay(byUid.get(uid), succeeded));
    }

    boolean contains(String uid) {
      return byUid.containsKey(uid);
    }

    int size() {
      return byUid.size();
    }

    /** The trace {@code uid}, or null. */
    PathwayTrace get(String uid) {
      byte[] packed = byUid.get(uid);
      return packed == null ? null : decode(uid, packed, pool.table());
    }

    byte[] packed(String uid) {
      return byUid.get(uid);
    }

    Set<Map.Entry<String, byte[]>> packed() {
      return byUid.entrySet();
    }

    /** Every trace, decoded, in insertion order. */
    List<PathwayTrace> traces() {
      List<PathwayTrace> out = new ArrayList<>(byUid.size());
      String[] table = pool.table();
      byUid.forEach((uid, packed) -> out.add(decode(uid, packed, table)));
      return out;
    }

    /**
     * The traces as they are now, to decode later without access: packed arrays are never changed
     * and the pool only appends.
     */
    List<Supplier<PathwayTrace>> frozen() {
      List<Supplier<PathwayTrace>> out = new ArrayList<>(byUid.size());
      String[] table = pool.table();
      byUid.forEach(
          (uid, packed) -> {
            Map<String, JsonNode> fields = unknown.getOrDefault(uid, Map.of());
            out.add(() -> TraceCodec.decode(uid, packed, fields, table));
          });
      return out;
    }

    /** Packs every trace again with a fresh pool, which then holds only the strings still used. */
    void repack() {
      List<PathwayTrace> all = traces();
      pool = new StringPool();
      for (PathwayTrace t : all) {
        store(t);
      }
    }

    private PathwayTrace decode(String uid, byte[] packed, String[] table) {
      return TraceCodec.decode(uid, packed, unknown.getOrDefault(uid, Map.of()), table);
    }
  }

  /** One pathway: its traces' uids in insertion order. */
  static final class Bucket {
    final List<String> uids = new ArrayList<>(2); // most pathways hold a trace or two
    boolean retired;
  }

  /** {@code replays_succeeded / replay_count}, 0 when never replayed (spec section 5.4). */
  public static double successRate(PathwayTrace t) {
    return rate(t.replayCount(), t.replaysSucceeded());
  }

  private static double rate(int replayCount, int replaysSucceeded) {
    return replayCount == 0 ? 0.0 : (double) replaysSucceeded / replayCount;
  }

  Shelf shelf(Namespace ns) {
    return shelves.computeIfAbsent(ns, k -> new Shelf());
  }

  /** The trace {@code traceUid} in {@code ns}, any version. */
  public Optional<PathwayTrace> find(Namespace ns, String traceUid) {
    Shelf shelf = shelves.get(ns);
    return shelf == null ? Optional.empty() : Optional.ofNullable(shelf.get(traceUid));
  }

  /**
   * The trace {@code traceUid} in {@code ns}.
   *
   * @throws NotFoundException naming {@code trace_uid}
   */
  public PathwayTrace require(Namespace ns, String traceUid) {
    return find(ns, traceUid)
        .orElseThrow(
            () ->
                new NotFoundException(
                    "trace_uid", "no pathway trace '" + traceUid + "' in namespace " + ns));
  }

  Optional<Bucket> bucket(Namespace ns, String pathwayId) {
    Shelf shelf = shelves.get(ns);
    return shelf == null ? Optional.empty() : Optional.ofNullable(shelf.buckets.get(pathwayId));
  }

  List<Map.Entry<Namespace, Shelf>> shelves(NamespaceScope scope) {
    List<Map.Entry<Namespace, Shelf>> out = new ArrayList<>();
    if (!scope.descendants()) {
      Shelf s = shelves.get(scope.root());
      if (s != null) {
        out.add(Map.entry(scope.root(), s));
      }
      return out;
    }
    shelves.forEach(
        (ns, s) -> {
          if (scope.contains(ns)) {
            out.add(Map.entry(ns, s));
          }
        });
    out.sort(Map.Entry.comparingByKey());
    return out;
  }

  /**
   * The traces of pathway {@code pathwayId} in the scope, in insertion order: head versions only
   * unless {@code includeHistory}.
   */
  public List<PathwayTrace> pathway(
      NamespaceScope scope, String pathwayId, boolean includeHistory, boolean includeRetired) {
    List<PathwayTrace> out = new ArrayList<>();
    for (Map.Entry<Namespace, Shelf> e : shelves(scope)) {
      Bucket b = e.getValue().buckets.get(pathwayId);
      if (b == null || b.retired && !includeRetired) {
        continue;
      }
      for (String uid : b.uids) {
        if (includeHistory || !TraceCodec.superseded(e.getValue().packed(uid))) {
          out.add(e.getValue().get(uid));
        }
      }
    }
    return out;
  }

  /**
   * {@code query_for_hotswap} (spec section 6.2) over the scope: the first {@code k} traces of the
   * pathway in {@link #HOTSWAP_ORDER}. Selects with a bounded heap, so a pathway of thousands of
   * traces costs one pass and not a sort of all of them.
   */
  public List<PathwayTrace> hotswap(
      NamespaceScope scope, String pathwayId, int k, boolean includeHistory) {
    PriorityQueue<Held> worstFirst = new PriorityQueue<>(k + 1, Held.ORDER.reversed());
    for (Map.Entry<Namespace, Shelf> e : shelves(scope)) {
      Shelf s = e.getValue();
      Bucket b = s.buckets.get(pathwayId);
      if (b == null || b.retired) {
        continue;
      }
      for (String uid : b.uids) {
        byte[] packed = s.packed(uid);
        if (!includeHistory && TraceCodec.superseded(packed)) {
          continue;
        }
        Held h = new Held(uid, packed, s);
        if (worstFirst.size() < k) {
          worstFirst.add(h);
        } else if (Held.ORDER.compare(h, worstFirst.peek()) < 0) {
          worstFirst.poll();
          worstFirst.add(h);
        }
      }
    }
    Held[] best = worstFirst.toArray(new Held[0]);
    Arrays.sort(best, Held.ORDER);
    List<PathwayTrace> out = new ArrayList<>(best.length);
    for (Held h : best) {
      out.add(h.shelf().get(h.uid()));
    }
    return List.copyOf(out);
  }

  /** A packed trace under consideration by {@link #hotswap}, ordered as {@link #HOTSWAP_ORDER}. */
  private record Held(String uid, byte[] packed, Shelf shelf) {
    static final Comparator<Held> ORDER =
        Comparator.comparingDouble(
                (Held h) ->
                    rate(TraceCodec.replayCount(h.packed), TraceCodec.replaysSucceeded(h.packed)))
            .thenComparingInt(h -> TraceCodec.replayCount(h.packed))
            .thenComparing((x, y) -> TraceCodec.compareCreated(x.packed, y.packed))
            .reversed()
            .thenComparing(Held::uid);
  }

  /**
   * {@code query_by_vec} (spec section 6.2): the {@code k} traces of the scope most similar to
   * {@code query} by cosine, best first.
   */
  public List<ScoredTrace> similar(
      NamespaceScope scope,
      PathwayVec query,
      int k,
      boolean includeHistory,
      boolean includeRetired) {
    float[] q = new float[PathwayVec.DIMENSION];
    VecIndex.unit(query, q, 0);
    VecIndex.Best best = new VecIndex.Best(k);
    for (Map.Entry<Namespace, Shelf> e : shelves(scope)) {
      Shelf s = e.getValue();
      if (includeHistory) {
        float[] unit = new float[PathwayVec.DIMENSION];
        float[] values = new float[PathwayVec.DIMENSION];
        for (Map.Entry<String, byte[]> t : s.packed()) {
          byte[] packed = t.getValue();
          if (TraceCodec.retired(packed) && !includeRetired) {
            continue;
          }
          TraceCodec.vector(packed, values);
          VecIndex.unit(i -> values[i], unit, 0);
          float dot = 0;
          for (int i = 0; i < unit.length; i++) {
            dot += unit[i] * q[i];
          }
          best.offer(dot, t.getKey(), s);
        }
      } else {
        s.heads.search(q, includeRetired, best, s);
      }
    }
    List<ScoredTrace> out = new ArrayList<>();
    for (VecIndex.Hit h : best.sorted()) {
      out.add(new ScoredTrace(((Shelf) h.source()).get(h.uid()), h.score()));
    }
    return out;
  }

  /**
   * The whole version chain of {@code traceUid}, root first (spec section 6.2, {@code
   * list_versions}). A chain whose links point at traces the namespace lacks (an import of part of
   * a file) stops there.
   *
   * @throws NotFoundException naming {@code trace_uid}
   */
  public List<PathwayTrace> versions(Namespace ns, String traceUid) {
    PathwayTrace t = require(ns, traceUid);
    Set<String> seen = new HashSet<>();
    seen.add(t.traceUid());
    PathwayTrace root = t;
    while (root.parentTraceUid().isPresent()) {
      Optional<PathwayTrace> parent = find(ns, root.parentTraceUid().get());
      if (parent.isEmpty() || !seen.add(parent.get().traceUid())) {
        break;
      }
      root = parent.get();
    }
    List<PathwayTrace> chain = new ArrayList<>();
    seen.clear();
    for (PathwayTrace c = root; c != null && seen.add(c.traceUid()); ) {
      chain.add(c);
      c = c.supersededByTraceUid().flatMap(uid -> find(ns, uid)).orElse(null);
    }
    return List.copyOf(chain);
  }

  /** The ids of every pathway in the scope, retired ones included, sorted. */
  public List<String> pathwayIds(NamespaceScope scope) {
    java.util.TreeSet<String> ids = new java.util.TreeSet<>();
    for (Map.Entry<Namespace, Shelf> e : shelves(scope)) {
      ids.addAll(e.getValue().buckets.keySet());
    }
    return List.copyOf(ids);
  }

  /** Counts over the scope. */
  public PathwayStats stats(NamespaceScope scope) {
    long pathways = 0;
    long retired = 0;
    long traces = 0;
    long heads = 0;
    long replays = 0;
    long succeeded = 0;
    long redactions = 0;
    for (Map.Entry<Namespace, Shelf> e : shelves(scope)) {
      Shelf s = e.getValue();
      pathways += s.buckets.size();
      retired += s.buckets.values().stream().filter(b -> b.retired).count();
      traces += s.size();
      heads += s.heads.size();
      for (Map.Entry<String, byte[]> t : s.packed()) {
        byte[] packed = t.getValue();
        if (!TraceCodec.superseded(packed)) { // heads hold their chain's replays
          replays += TraceCodec.replayCount(packed);
          succeeded += TraceCodec.replaysSucceeded(packed);
        }
      }
      redactions += s.redactions;
    }
    return new PathwayStats(pathways, retired, traces, heads, replays, succeeded, redactions);
  }

  /**
   * The traces of {@code ns} grouped by pathway in insertion order, and when the namespace last
   * changed, for export.
   */
  public Map.Entry<Map<String, List<PathwayTrace>>, Instant> byPathway(Namespace ns) {
    Map<String, List<PathwayTrace>> out = new LinkedHashMap<>();
    Shelf s = shelves.get(ns);
    if (s == null) {
      return Map.entry(out, Instant.EPOCH);
    }
    s.buckets.forEach((id, b) -> out.put(id, b.uids.stream().map(s::get).toList()));
    return Map.entry(out, s.lastUpdated);
  }
}
