package dev.loci.pathway.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loci.pathway.AuditConsensus;
import dev.loci.pathway.BridgeHit;
import dev.loci.pathway.BugFingerprint;
import dev.loci.pathway.KbChunkRef;
import dev.loci.pathway.LadderAttempt;
import dev.loci.pathway.ObserverSignal;
import dev.loci.pathway.PathwayTrace;
import dev.loci.pathway.PathwayVec;
import dev.loci.pathway.SemanticFlag;
import dev.loci.pathway.SubPipelineCall;
import dev.loci.pathway.TypeHint;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * A pathway trace packed into one byte array, the form a {@link PathwayShelves.Shelf} keeps it in:
 * a trace as objects is some forty small objects (lists, records, {@code Optional}s, an {@code
 * Instant}, a vector), about 1.8 KB of heap; packed it is one array of a few hundred bytes.
 *
 * <p>Layout: a fixed head that queries read in place ({@code replay_count}, {@code
 * replays_succeeded}, {@code created_at}, flags for retired, superseded and legacy), the vector (as
 * the token counts it was computed from when they reproduce it exactly, else as 32 floats), then
 * every other field in spec order. Strings that repeat across traces (pathway id, task class, file,
 * signal class, verdict, models, reject reasons, kb documents and chunk ids, observer labels and
 * outcomes, libraries, type-hint sources, audit models, subject ids) are numbers into the shelf's
 * {@link StringPool}; the rest are written inline, as one byte per character when every character
 * is below 0x80 and as UTF-16 otherwise, so any string round-trips exactly. The {@code trace_uid}
 * is not packed (the shelf's map holds it as the key), nor are the unknown fields, which the shelf
 * keeps beside the array for the rare trace that has them.
 *
 * <p>{@link #decode} returns a trace equal to the one {@link #encode} was given. Stateless; the
 * pool and the scratch buffer are the caller's, used under the engine's exclusive access. A packed
 * array is never changed once made (a change makes a copy), so a snapshot can hold it.
 */
final class TraceCodec {
  private static final VarHandle INT =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle FLOAT =
      MethodHandles.byteArrayViewVarHandle(float[].class, ByteOrder.LITTLE_ENDIAN);

  private static final int REPLAYS = 0;
  private static final int SUCCEEDED = 4;
  private static final int CREATED_SECONDS = 8;
  private static final int CREATED_NANOS = 16;
  private static final int FLAGS = 20;
  private static final int VECTOR = 21;

  private static final int RETIRED = 1;
  private static final int SUPERSEDED = 2;
  private static final int LEGACY = 4;
  private static final int COUNTED = 8;

  /** The largest bucket count tried when looking for the counts behind a vector. */
  private static final int MAX_SCALE = 8;

  private static final SemanticFlag[] SEMANTIC_FLAGS = SemanticFlag.values();

  private TraceCodec() {}

  // ---------------------------------------------------------------- the fixed head

  static int replayCount(byte[] packed) {
    return (int) INT.get(packed, REPLAYS);
  }

  static int replaysSucceeded(byte[] packed) {
    return (int) INT.get(packed, SUCCEEDED);
  }

  /** A copy of {@code packed} with one more replay counted. */
  static byte[] withReplay(byte[] packed, boolean succeeded) {
    byte[] out = packed.clone();
    INT.set(out, REPLAYS, replayCount(packed) + 1);
    INT.set(out, SUCCEEDED, replaysSucceeded(packed) + (succeeded ? 1 : 0));
    return out;
  }

  static boolean retired(byte[] packed) {
    return (packed[FLAGS] & RETIRED) != 0;
  }

  /** A copy of {@code packed} marked retired. */
  static byte[] asRetired(byte[] packed) {
    byte[] out = packed.clone();
    out[FLAGS] |= RETIRED;
    return out;
  }

  /** Whether {@code superseded_at} is present: the trace is not a head version. */
  static boolean superseded(byte[] packed) {
    return (packed[FLAGS] & SUPERSEDED) != 0;
  }

  /** Compares {@code created_at} of two packed traces, as {@link Instant#compareTo} would. */
  static int compareCreated(byte[] a, byte[] b) {
    int c = Long.compare((long) LONG.get(a, CREATED_SECONDS), (long) LONG.get(b, CREATED_SECONDS));
    return c != 0
        ? c
        : Integer.compare((int) INT.get(a, CREATED_NANOS), (int) INT.get(b, CREATED_NANOS));
  }

  /** Writes the 32 vector values into {@code out}. */
  static void vector(byte[] packed, float[] out) {
    if ((packed[FLAGS] & COUNTED) == 0) {
      for (int i = 0; i < PathwayVec.DIMENSION; i++) {
        out[i] = (float) FLOAT.get(packed, VECTOR + 4 * i);
      }
      return;
    }
    double[] counts = new double[PathwayVec.DIMENSION];
    int n = packed[VECTOR];
    for (int j = 0; j < n; j++) {
      counts[packed[VECTOR + 1 + 2 * j]] = packed[VECTOR + 2 + 2 * j] & 0xFF;
    }
    normalize(counts, out);
  }

  /**
   * The unit vector of bucket counts, with the arithmetic of {@link
   * dev.loci.pathway.PathwayIdentity}'s vector: a vector Loci computed is these values for its
   * token counts.
   */
  private static void normalize(double[] counts, float[] out) {
    double sum = 0;
    for (double c : counts) {
      sum += c * c;
    }
    double norm = Math.sqrt(sum);
    for (int i = 0; i < out.length; i++) {
      out[i] = norm > 0 ? (float) (counts[i] / norm) : 0f;
    }
  }

  /**
   * The bucket counts (1 to 255) whose {@link #normalize} is exactly {@code v}, or null: a computed
   * vector is a few small token counts, stored as a pair of bytes per bucket used instead of 128
   * bytes of floats. Tries the smallest value as a count of 1 to {@link #MAX_SCALE} and keeps the
   * counts only if they reproduce every bit of {@code v}.
   */
  private static double[] countsOf(PathwayVec vec) {
    float[] v = vec.values();
    float min = Float.MAX_VALUE;
    for (float x : v) {
      if (x < 0 || Float.compare(x, -0f) == 0) {
        return null;
      }
      if (x > 0 && x < min) {
        min = x;
      }
    }
    if (min == Float.MAX_VALUE) {
      return null; // all zeros: rare, kept as floats
    }
    double[] counts = new double[v.length];
    float[] check = new float[v.length];
    for (int scale = 1; scale <= MAX_SCALE; scale++) {
      boolean fits = true;
      for (int i = 0; i < v.length && fits; i++) {
        counts[i] = Math.rint((double) v[i] / min * scale);
        fits = counts[i] <= 255;
      }
      if (fits) {
        normalize(counts, check);
        if (Arrays.equals(check, v)) {
          return counts;
        }
      }
    }
    return null;
  }

  // ---------------------------------------------------------------- encoding

  /** Packs {@code t} (all but its uid and unknown fields), adding its repeated strings to pool. */
  static byte[] encode(PathwayTrace t, StringPool pool, Out out) {
    double[] counts = countsOf(t.pathwayVec());
    out.reset(VECTOR);
    byte[] b = out.buf;
    INT.set(b, REPLAYS, t.replayCount());
    INT.set(b, SUCCEEDED, t.replaysSucceeded());
    LONG.set(b, CREATED_SECONDS, t.createdAt().getEpochSecond());
    INT.set(b, CREATED_NANOS, t.createdAt().getNano());
    b[FLAGS] =
        (byte)
            ((t.retired() ? RETIRED : 0)
                | (t.supersededAt().isPresent() ? SUPERSEDED : 0)
                | (t.legacy() ? LEGACY : 0)
                | (counts != null ? COUNTED : 0));
    out.vector(t.pathwayVec(), counts);
    out.pooled(pool, t.pathwayId());
    out.varint(t.version());
    out.optionalText(t.parentTraceUid());
    t.supersededAt()
        .ifPresent(
            at -> {
              out.varlong(at.getEpochSecond());
              out.varint(at.getNano());
            });
    out.optionalText(t.supersededByTraceUid());
    out.pooled(pool, t.taskClass());
    out.pooled(pool, t.filePath());
    out.optionalPooled(pool, t.signalClass());
    out.varint(t.ladderAttempts().size());
    for (LadderAttempt a : t.ladderAttempts()) {
      out.varint(a.rung());
      out.pooled(pool, a.model());
      out.varlong(a.latencyMs());
      out.bool(a.accepted());
      out.optionalPooled(pool, a.rejectReason());
    }
    out.varint(t.kbChunks().size());
    for (KbChunkRef k : t.kbChunks()) {
      out.pooled(pool, k.sourceDoc());
      out.pooled(pool, k.chunkId());
      out.fixed64(Double.doubleToRawLongBits(k.cosineScore()));
      out.varint(k.rank());
    }
    out.varint(t.observerSignals().size());
    for (ObserverSignal s : t.observerSignals()) {
      out.pooled(pool, s.label());
      out.varint(s.priors());
      out.pooledList(pool, s.priorIterOutcomes());
    }
    out.varint(t.bridgeHits().size());
    for (BridgeHit h : t.bridgeHits()) {
      out.pooled(pool, h.library());
      out.pooled(pool, h.version());
      out.text(h.resultSummary());
    }
    out.varint(t.subPipelineCalls().size());
    for (SubPipelineCall c : t.subPipelineCalls()) {
      out.text(c.json());
    }
    out.bool(t.auditConsensus().isPresent());
    t.auditConsensus()
        .ifPresent(
            a -> {
              out.bool(a.pass());
              out.pooledList(pool, a.models());
              out.varint(a.disagreements().size());
              a.disagreements().forEach(out::text);
            });
    out.text(t.reducerSummary());
    out.pooled(pool, t.finalVerdict());
    out.varint(t.semanticFlags().size());
    for (SemanticFlag f : t.semanticFlags()) {
      out.varint(f.ordinal());
    }
    out.varint(t.typeHintsUsed().size());
    for (TypeHint h : t.typeHintsUsed()) {
      out.pooled(pool, h.source());
      out.text(h.symbol());
      out.text(h.typeRepr());
    }
    out.varint(t.bugFingerprints().size());
    for (BugFingerprint f : t.bugFingerprints()) {
      out.varint(f.flag().ordinal());
      out.text(f.patternKey());
      out.text(f.example());
      out.varint(f.occurrences());
    }
    out.pooledList(pool, t.subjectIds());
    return Arrays.copyOf(out.buf, out.size);
  }

  // ---------------------------------------------------------------- decoding

  /** The trace {@code packed} holds, with {@code uid} and {@code unknown} put back. */
  static PathwayTrace decode(
      String uid, byte[] packed, Map<String, JsonNode> unknown, String[] pool) {
    In in = new In(packed, pool);
    PathwayTrace.Builder b =
        PathwayTrace.builder("-", "")
            .traceUid(uid)
            .replayCount(replayCount(packed))
            .replaysSucceeded(replaysSucceeded(packed))
            .createdAt(
                Instant.ofEpochSecond(
                    (long) LONG.get(packed, CREATED_SECONDS), (int) INT.get(packed, CREATED_NANOS)))
            .retired(retired(packed))
            .legacy((packed[FLAGS] & LEGACY) != 0)
            .unknownFields(unknown);
    float[] vec = new float[PathwayVec.DIMENSION];
    vector(packed, vec);
    b.pathwayVec(new PathwayVec(vec));
    b.pathwayId(in.pooled());
    b.version(in.varint());
    b.parentTraceUid(in.optionalText());
    b.supersededAt(
        superseded(packed)
            ? Optional.of(Instant.ofEpochSecond(in.varlong(), in.varint()))
            : Optional.empty());
    b.supersededByTraceUid(in.optionalText());
    b.taskClass(in.pooled());
    b.filePath(in.pooled());
    b.signalClass(in.optionalPooled());
    b.ladderAttempts(
        in.list(
            i ->
                new LadderAttempt(
                    i.varint(), i.pooled(), i.varlong(), i.bool(), i.optionalPooled())));
    b.kbChunks(
        in.list(
            i ->
                new KbChunkRef(
                    i.pooled(), i.pooled(), Double.longBitsToDouble(i.fixed64()), i.varint())));
    b.observerSignals(in.list(i -> new ObserverSignal(i.pooled(), i.varint(), i.pooledList())));
    b.bridgeHits(in.list(i -> new BridgeHit(i.pooled(), i.pooled(), i.text())));
    b.subPipelineCalls(in.list(i -> new SubPipelineCall(i.text())));
    b.auditConsensus(
        in.bool()
            ? Optional.of(new AuditConsensus(in.bool(), in.pooledList(), in.list(In::text)))
            : Optional.empty());
    b.reducerSummary(in.text());
    b.finalVerdict(in.pooled());
    b.semanticFlags(in.list(i -> SEMANTIC_FLAGS[i.varint()]));
    b.typeHintsUsed(in.list(i -> new TypeHint(i.pooled(), i.text(), i.text())));
    b.bugFingerprints(
        in.list(
            i -> new BugFingerprint(SEMANTIC_FLAGS[i.varint()], i.text(), i.text(), i.varint())));
    b.subjectIds(in.pooledList());
    return b.build();
  }

  // ---------------------------------------------------------------- streams

  /** A growable scratch buffer for {@link #encode}; reused, not thread-safe. */
  static final class Out {
    private byte[] buf = new byte[512];
    private int size;

    void reset(int head) {
      Arrays.fill(buf, 0, head, (byte) 0);
      size = head;
    }

    /** The vector at {@link #VECTOR}: as its nonzero counts if given, else as 32 floats. */
    void vector(PathwayVec vec, double[] counts) {
      room(1 + 4 * PathwayVec.DIMENSION);
      if (counts == null) {
        for (int i = 0; i < PathwayVec.DIMENSION; i++) {
          FLOAT.set(buf, size + 4 * i, vec.get(i));
        }
        size += 4 * PathwayVec.DIMENSION;
        return;
      }
      int start = size++;
      for (int i = 0; i < counts.length; i++) {
        if (counts[i] > 0) {
          buf[size++] = (byte) i;
          buf[size++] = (byte) counts[i];
        }
      }
      buf[start] = (byte) ((size - start - 1) / 2);
    }

    private void room(int n) {
      if (size + n > buf.length) {
        buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + n));
      }
    }

    void bool(boolean v) {
      room(1);
      buf[size++] = (byte) (v ? 1 : 0);
    }

    void varint(int v) {
      varlong(v & 0xFFFFFFFFL);
    }

    void fixed64(long v) {
      room(8);
      LONG.set(buf, size, v);
      size += 8;
    }

    void varlong(long v) {
      room(10);
      while ((v & ~0x7FL) != 0) {
        buf[size++] = (byte) ((v & 0x7F) | 0x80);
        v >>>= 7;
      }
      buf[size++] = (byte) v;
    }

    void text(String s) {
      int n = s.length();
      boolean ascii = true;
      for (int i = 0; i < n && ascii; i++) {
        ascii = s.charAt(i) < 0x80;
      }
      varint(n << 1 | (ascii ? 0 : 1));
      room(ascii ? n : 2 * n);
      for (int i = 0; i < n; i++) {
        char c = s.charAt(i);
        if (!ascii) {
          buf[size++] = (byte) (c >>> 8);
        }
        buf[size++] = (byte) c;
      }
    }

    void optionalText(Optional<String> s) {
      bool(s.isPresent());
      s.ifPresent(this::text);
    }

    void pooled(StringPool pool, String s) {
      varint(pool.id(s));
    }

    void optionalPooled(StringPool pool, Optional<String> s) {
      varint(s.isPresent() ? pool.id(s.get()) + 1 : 0);
    }

    void pooledList(StringPool pool, List<String> list) {
      varint(list.size());
      for (String s : list) {
        pooled(pool, s);
      }
    }
  }

  /** Reads a packed trace's body in order. */
  private static final class In {
    private final byte[] buf;
    private final String[] pool;
    private int pos;

    In(byte[] buf, String[] pool) {
      this.buf = buf;
      this.pool = pool;
      this.pos =
          (buf[FLAGS] & COUNTED) != 0
              ? VECTOR + 1 + 2 * buf[VECTOR]
              : VECTOR + 4 * PathwayVec.DIMENSION;
    }

    boolean bool() {
      return buf[pos++] != 0;
    }

    int varint() {
      return (int) varlong();
    }

    long fixed64() {
      long v = (long) LONG.get(buf, pos);
      pos += 8;
      return v;
    }

    long varlong() {
      long v = 0;
      for (int shift = 0; ; shift += 7) {
        byte b = buf[pos++];
        v |= (long) (b & 0x7F) << shift;
        if (b >= 0) {
          return v;
        }
      }
    }

    String text() {
      int header = varint();
      int n = header >>> 1;
      if ((header & 1) == 0) {
        String s = new String(buf, pos, n, StandardCharsets.ISO_8859_1);
        pos += n;
        return s;
      }
      char[] chars = new char[n];
      for (int i = 0; i < n; i++, pos += 2) {
        chars[i] = (char) ((buf[pos] & 0xFF) << 8 | buf[pos + 1] & 0xFF);
      }
      return new String(chars);
    }

    Optional<String> optionalText() {
      return bool() ? Optional.of(text()) : Optional.empty();
    }

    String pooled() {
      return pool[varint()];
    }

    Optional<String> optionalPooled() {
      int id = varint();
      return id == 0 ? Optional.empty() : Optional.of(pool[id - 1]);
    }

    List<String> pooledList() {
      return list(In::pooled);
    }

    <T> List<T> list(Function<In, T> element) {
      int n = varint();
      if (n == 0) {
        return List.of();
      }
      List<T> out = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        out.add(element.apply(this));
      }
      return out;
    }
  }
}
