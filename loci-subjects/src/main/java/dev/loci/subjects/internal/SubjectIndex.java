package dev.loci.subjects.internal;

import dev.loci.Namespace;
import dev.loci.subjects.Erasure;
import dev.loci.subjects.HeldRecord;
import dev.loci.subjects.SubjectPolicy;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The subject layer's in-memory index: every subject by reference, and every record that names a
 * subject, by layer, namespace and id.
 *
 * <p>Design: the index gains an entry on every write that names a subject, so it is built to cost
 * little per write and little per record held (the young collector copies every record it adds once
 * or twice, and its pauses stop the writers). A record is one {@link Rec}, shared by the subjects
 * it names: its versions are kept once, and each subject holds the suffix of them from the batch
 * that first named it (a record keeps every subject it ever named, so every later version is each
 * one's). Records are found through nested maps keyed by the layer name, the namespace's value and
 * the record id, whose hashes the strings already hold, so a write builds no key string. Subject
 * ids seen recently map to their subject ({@link #forId}), so a write does not hash its subject id
 * again; that cache is memory only, bounded, and forgotten at every erasure (so that after an
 * erasure no id the index saw stays in memory because of it) and whenever the index is cleared.
 *
 * <p>Not thread-safe: changed under the engine's exclusive access, read under its shared access.
 */
final class SubjectIndex {
  /** Subject ids remembered by {@link #forId} before the cache starts again. */
  static final int ID_CACHE = 1 << 14;

  /** One subject's state. */
  static final class Subject {
    final String ref;
    final List<Rec> records = new ArrayList<>(4); // in the order the subject came to hold them
    SubjectPolicy policy = SubjectPolicy.NONE;
    Erasure erasure;
    long auditEntries;

    Subject(String ref) {
      this.ref = ref;
    }
  }

  /** One record that names subjects, with its versions and the subjects it names. */
  static final class Rec {
    final String layer;
    final String kind;
    final Namespace ns;
    final String id;
    Instant last;
    private long[] versions = new long[2];
    private int count;
    private Subject[] subjects = new Subject[1];
    private int[] from = new int[1]; // subjects[i] holds versions[from[i]..count)
    private int holders;

    Rec(String layer, String kind, Namespace ns, String id) {
      this.layer = layer;
      this.kind = kind;
      this.ns = ns;
      this.id = id;
    }

    int holders() {
      return holders;
    }

    Subject holder(int i) {
      return subjects[i];
    }

    boolean names(Subject s) {
      for (int i = 0; i < holders; i++) {
        if (subjects[i] == s) {
          return true;
        }
      }
      return false;
    }

    /**
     * Makes {@code s} one of the subjects the record names, holding versions from batch {@code seq}
     * on (the batch that names it; if that batch already wrote a version, from that one); returns
     * whether it is new.
     */
    boolean hold(Subject s, long seq) {
      if (names(s)) {
        return false;
      }
      int first = count > 0 && versions[count - 1] == seq ? count - 1 : count;
      hold(s, first);
      return true;
    }

    private void hold(Subject s, int first) {
      if (holders == subjects.length) {
        subjects = Arrays.copyOf(subjects, holders * 2);
        from = Arrays.copyOf(from, holders * 2);
      }
      subjects[holders] = s;
      from[holders++] = first;
    }

    /** Adds version {@code seq} (written at {@code at}) unless it is the last one already. */
    void version(long seq, Instant at) {
      if (count == 0 || versions[count - 1] != seq) {
        if (count == versions.length) {
          versions = Arrays.copyOf(versions, count * 2);
        }
        versions[count++] = seq;
      }
      last = at;
    }

    /** The versions subject {@code s} holds, oldest first. */
    List<Long> versionsOf(Subject s) {
      for (int i = 0; i < holders; i++) {
        if (subjects[i] == s) {
          List<Long> out = new ArrayList<>(count - from[i]);
          for (int v = from[i]; v < count; v++) {
            out.add(versions[v]);
          }
          return out;
        }
      }
      return List.of();
    }

    /**
     * Restores that subject {@code s} holds {@code held} (its versions from a snapshot, a suffix of
     * the record's, since every subject of a record gets each version written after it joined).
     */
    void restore(Subject s, long[] held, Instant at) {
      if (held.length > count) {
        int shift = held.length - count;
        for (int i = 0; i < holders; i++) {
          from[i] += shift;
        }
        versions = Arrays.copyOf(held, Math.max(2, held.length));
        count = held.length;
      }
      hold(s, count - held.length);
      if (last == null || at.isAfter(last)) {
        last = at;
      }
    }

    HeldRecord view(Subject s) {
      return new HeldRecord(layer, kind, ns, id, versionsOf(s), last);
    }
  }

  private final Map<String, Subject> subjects = new HashMap<>();
  // layer -> namespace value -> record id -> record
  private final Map<String, Map<String, Map<String, Rec>>> records = new HashMap<>();
  private final Map<String, Subject> byId = new HashMap<>();

  /** The reference of subject {@code id}: the SHA-256 of its UTF-8 bytes, in hex. */
  static String ref(String id) {
    return HexFormat.of().formatHex(SHA256.get().digest(id.getBytes(StandardCharsets.UTF_8)));
  }

  // a digest per thread: looking one up costs more than hashing a short id
  private static final ThreadLocal<MessageDigest> SHA256 =
      ThreadLocal.withInitial(
          () -> {
            try {
              return MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException e) {
              throw new IllegalStateException("the JDK lacks SHA-256", e);
            }
          });

  /** The subject with reference {@code ref}, if known. */
  Subject get(String ref) {
    return subjects.get(ref);
  }

  /** The subject with reference {@code ref}, added if new. */
  Subject getOrAdd(String ref) {
    return subjects.computeIfAbsent(ref, Subject::new);
  }

  /** The subject with id {@code id}, added if new; remembers the id for the next write. */
  Subject forId(String id) {
    Subject s = byId.get(id);
    if (s == null) {
      s = getOrAdd(ref(id));
      if (byId.size() >= ID_CACHE) {
        byId.clear();
      }
      byId.put(id, s);
    }
    return s;
  }

  /** How many subject ids {@link #forId} remembers now (for tests). */
  int rememberedIds() {
    return byId.size();
  }

  /** Forgets every remembered subject id. */
  void forgetIds() {
    byId.clear();
  }

  void forEach(Consumer<Subject> each) {
    subjects.values().forEach(each);
  }

  /**
   * The record {@code id} of {@code layer} in namespace {@code ns} (its value), if it names any.
   */
  Rec find(String layer, String ns, String id) {
    Map<String, Rec> byRecord = byRecord(layer, ns, false);
    return byRecord == null ? null : byRecord.get(id);
  }

  // the records of the last layer and namespace looked up: writes come in runs of one namespace
  private String lastLayer;
  private String lastNs;
  private Map<String, Rec> lastRecords;

  /** The records of {@code layer} in namespace {@code ns}, added if new and {@code add}. */
  private Map<String, Rec> byRecord(String layer, String ns, boolean add) {
    if (lastRecords != null && layer.equals(lastLayer) && ns.equals(lastNs)) {
      return lastRecords;
    }
    Map<String, Map<String, Rec>> byNs =
        add ? records.computeIfAbsent(layer, k -> new HashMap<>()) : records.get(layer);
    Map<String, Rec> byRecord =
        byNs == null ? null : add ? byNs.computeIfAbsent(ns, k -> new HashMap<>()) : byNs.get(ns);
    if (byRecord != null) {
      lastLayer = layer;
      lastNs = ns;
      lastRecords = byRecord;
    }
    return byRecord;
  }

  /** The record of {@code layer} whose {@link dev.loci.spi.SubjectMention#key} is {@code key}. */
  Rec find(String layer, String key) {
    int slash = key.indexOf('/');
    return slash < 0 ? null : find(layer, key.substring(0, slash), key.substring(slash + 1));
  }

  /** The record with qualified key {@code qualified} ({@code layer|ns/id}), if it names any. */
  Rec find(String qualified) {
    int bar = qualified.indexOf('|');
    return bar < 0 ? null : find(qualified.substring(0, bar), qualified.substring(bar + 1));
  }

  /** The record, added (naming nobody yet) if new. */
  Rec findOrAdd(String layer, String kind, Namespace ns, String id) {
    Map<String, Rec> byRecord = byRecord(layer, ns.value(), true);
    Rec r = byRecord.get(id);
    if (r == null) {
      r = new Rec(layer, kind, ns, id);
      byRecord.put(id, r);
    }
    return r;
  }

  /** Drops record {@code r} from the index (its subjects' lists are the caller's). */
  void remove(Rec r) {
    Map<String, Map<String, Rec>> byNs = records.get(r.layer);
    Map<String, Rec> byRecord = byNs == null ? null : byNs.get(r.ns.value());
    if (byRecord != null && byRecord.get(r.id) == r) {
      byRecord.remove(r.id);
      if (byRecord.isEmpty()) {
        byNs.remove(r.ns.value());
        lastRecords = byRecord == lastRecords ? null : lastRecords;
      }
    }
  }

  /** The references of the subjects record {@code qualified} names, in the order they joined. */
  Set<String> refsOf(String qualified) {
    Rec r = find(qualified);
    if (r == null) {
      return Set.of();
    }
    Set<String> out = new LinkedHashSet<>();
    for (int i = 0; i < r.holders; i++) {
      out.add(r.subjects[i].ref);
    }
    return out;
  }

  /** Restores one record subject {@code s} holds, as a snapshot lists it. */
  void restore(
      Subject s, String layer, String kind, Namespace ns, String id, long[] held, Instant last) {
    Rec r = findOrAdd(layer, kind, ns, id);
    if (!r.names(s)) {
      r.restore(s, held, last);
      s.records.add(r);
    }
  }

  void clear() {
    subjects.clear();
    records.clear();
    lastRecords = null;
    byId.clear();
  }
}
