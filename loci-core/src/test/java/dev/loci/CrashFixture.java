package dev.loci;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loci.internal.FileJournal;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import java.util.stream.LongStream;
import java.util.stream.Stream;

/**
 * Shared machinery of the crash, corruption and concurrency tests: builds a data directory through
 * the public API while recording the state after every committed batch, predicts the state a
 * journal with skipped batches must replay to, captures and compares full state, manipulates
 * journal and snapshot bytes, and runs {@link CrashWriter} in a child JVM that gets killed.
 */
final class CrashFixture {
  static final Namespace ALPHA = Namespace.of("crash.alpha");
  static final Namespace BETA = Namespace.of("crash.beta");
  static final NamespaceScope ALL = NamespaceScope.of("crash.*");

  /** Base of the seeds the seeded tests use; override with {@code -Dloci.test.seed=...}. */
  static final long BASE_SEED = Long.getLong("loci.test.seed", 20261122L);

  private CrashFixture() {}

  /** The seeds of a seeded parameterized test: {@code n} of them, derived from the base seed. */
  static LongStream seeds(int n) {
    Random r = new Random(BASE_SEED);
    return LongStream.generate(() -> r.nextLong() & Long.MAX_VALUE).limit(n);
  }

  /** Runs {@code body}, naming the seed in any failure so it can be replayed. */
  static void withSeed(long seed, ThrowingRunnable body) {
    try {
      body.run();
    } catch (AssertionError | Exception e) {
      throw new AssertionError(
          "failed with seed "
              + seed
              + " (the seeds of a run derive from -Dloci.test.seed="
              + BASE_SEED
              + "): "
              + e,
          e);
    }
  }

  /** A test body that may throw. */
  @FunctionalInterface
  interface ThrowingRunnable {
    void run() throws Exception;
  }

  // ------------------------------------------------------------------ fixture

  /** What a write did, as the model needs it. */
  enum Kind {
    /** A new trace: add, revise, or addIdempotent of an unknown uid. */
    CREATE,
    /** addIdempotent of an existing uid. */
    REPLAY,
    UPDATE,
    RETIRE
  }

  /**
   * One acknowledged write: the batch sequence number it got and what the API returned.
   *
   * @param seq the journal sequence number of the batch
   * @param kind what it did
   * @param result the trace the API returned
   */
  record Op(long seq, Kind kind, Trace result) {}

  /**
   * A data directory built through the API.
   *
   * @param dir the data directory (closed)
   * @param ops every write, in batch order; {@code ops.get(i).seq() == i + 1}
   * @param states {@code states.get(k)} is the full state after the first {@code k} batches
   * @param snapshotSeqs the sequence numbers explicit snapshots were taken at
   */
  record Built(Path dir, List<Op> ops, List<Map<String, Trace>> states, List<Long> snapshotSeqs) {
    Map<String, Trace> finalState() {
      return states.get(states.size() - 1);
    }
  }

  /** Opens {@code dir} the way the tests do: no snapshot on close, other settings default. */
  static Loci open(Path dir) {
    return Loci.builder().dataDir(dir).snapshotAfter(0).open();
  }

  static Built build(Path dir, long seed, int batches) {
    return build(dir, seed, batches, b -> b, Set.of());
  }

  /**
   * Builds a data directory with {@code batches} seeded random writes (adds, idempotent adds and
   * replays, updates, revises, retires) over two namespaces, recording the state after each.
   *
   * @param config adjusts the builder (durability, segment size)
   * @param snapshotAfterBatch take a {@link Loci#snapshot()} right after these batch numbers
   */
  static Built build(
      Path dir,
      long seed,
      int batches,
      UnaryOperator<Loci.Builder> config,
      Set<Integer> snapshotAfterBatch) {
    Random r = new Random(seed);
    List<Op> ops = new ArrayList<>();
    List<Map<String, Trace>> states = new ArrayList<>();
    List<Long> snapshots = new ArrayList<>();
    states.add(Map.of());
    List<Trace> known = new ArrayList<>();
    List<String> idem = new ArrayList<>();
    try (Loci loci = config.apply(Loci.builder().dataDir(dir).snapshotAfter(0)).open()) {
      Traces traces = loci.traces();
      while (ops.size() < batches) {
        Namespace ns = r.nextBoolean() ? ALPHA : BETA;
        List<Trace> inNs = known.stream().filter(t -> t.namespace().equals(ns)).toList();
        int pick = r.nextInt(100);
        String content = content(r, ops.size());
        Op op;
        long seq = ops.size() + 1;
        if (pick < 30 || inNs.isEmpty()) {
          List<String> tags = tags(r);
          Trace t = traces.add(ns, content, tags);
          assertThat(t.content()).isEqualTo(content);
          op = new Op(seq, Kind.CREATE, t);
        } else if (pick < 45) {
          boolean replay = !idem.isEmpty() && r.nextBoolean();
          String uid = replay ? idem.get(r.nextInt(idem.size())) : "idem-" + seq;
          Optional<Trace> existing = traces.find(ns, uid);
          Trace t = traces.addIdempotent(ns, uid, content, tags(r));
          if (existing.isPresent()) {
            op = new Op(seq, Kind.REPLAY, t);
          } else {
            idem.add(uid);
            op = new Op(seq, Kind.CREATE, t);
          }
        } else if (pick < 65) {
          Trace target = inNs.get(r.nextInt(inNs.size()));
          op = new Op(seq, Kind.UPDATE, traces.update(ns, target.uid(), content));
        } else if (pick < 85) {
          Trace target = inNs.get(r.nextInt(inNs.size()));
          op = new Op(seq, Kind.CREATE, traces.revise(ns, target.uid(), content, tags(r)));
        } else {
          List<Trace> live = inNs.stream().filter(t -> !traces.get(ns, t.uid()).retired()).toList();
          if (live.isEmpty()) {
            continue;
          }
          op = new Op(seq, Kind.RETIRE, traces.retire(ns, live.get(r.nextInt(live.size())).uid()));
        }
        assertThat(loci.lastSeq()).as("one batch per write").isEqualTo(seq);
        if (op.kind() == Kind.CREATE) {
          known.add(op.result());
        }
        ops.add(op);
        states.add(state(loci));
        if (snapshotAfterBatch.contains(ops.size())) {
          snapshots.add(loci.snapshot());
        }
      }
      for (int k = 0; k <= ops.size(); k++) {
        assertThat(expect(ops.subList(0, k), Set.of()).state())
            .as("the test model agrees with the engine after %d batches", k)
            .isEqualTo(states.get(k));
      }
    }
    return new Built(dir, List.copyOf(ops), List.copyOf(states), List.copyOf(snapshots));
  }

  private static final String[] PIECES = {
    "a", "b", "tea", " ", "é", "ß", "日本", "\uD83D\uDE00", "\\\"", "\\\\", "\\n", "J", "*", "0", "{"
  };

  /** Seeded JSON content with multi-byte characters and escapes, mostly short, sometimes long. */
  static String content(Random r, int n) {
    int len = r.nextInt(10) == 0 ? 200 + r.nextInt(600) : r.nextInt(40);
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < len; i++) {
      text.append(PIECES[r.nextInt(PIECES.length)]);
    }
    return "{\"n\":" + n + ",\"text\":\"" + text + "\",\"v\":[1,2.5,true,null]}";
  }

  private static List<String> tags(Random r) {
    List<String> tags = new ArrayList<>();
    int n = r.nextInt(3);
    for (int i = 0; i < n; i++) {
      tags.add("tag-" + r.nextInt(4));
    }
    return tags;
  }

  // ------------------------------------------------------------------ state and model

  /** The key a trace has in a state map. */
  static String key(Trace t) {
    return t.namespace().value() + " " + t.uid();
  }

  /**
   * Every trace under {@code crash.*}, retired ones included, read page by page through search;
   * fails on a uid listed twice or a listing that disagrees with {@link Traces#count}.
   */
  static Map<String, Trace> state(Loci loci) {
    return state(loci, ALL);
  }

  static Map<String, Trace> state(Loci loci, NamespaceScope scope) {
    Map<String, Trace> all = new TreeMap<>();
    Optional<String> cursor = Optional.empty();
    do {
      TraceQuery.Builder q = TraceQuery.in(scope).includeRetired(true).limit(TraceQuery.MAX_LIMIT);
      cursor.ifPresent(q::cursor);
      Page<Trace> page = loci.traces().search(q.build());
      for (Trace t : page.items()) {
        Trace old = all.put(key(t), t);
        assertThat(old).as("trace %s listed twice", key(t)).isNull();
      }
      cursor = page.nextCursor();
    } while (cursor.isPresent());
    assertThat((long) all.size()).as("listing size vs count").isEqualTo(loci.traces().count(scope));
    return all;
  }

  /**
   * What replaying the journal must produce when the batches in {@code lost} are unreadable.
   *
   * @param state the traces
   * @param applyErrors the batches that must be skipped as APPLY_ERROR because they depend on a
   *     lost one
   */
  record Expected(Map<String, Trace> state, Set<Long> applyErrors) {}

  /** Replays {@code ops} without the batches in {@code lost}, as the trace layer's apply does. */
  static Expected expect(List<Op> ops, Set<Long> lost) {
    Map<String, Trace> state = new TreeMap<>();
    Set<Long> errors = new TreeSet<>();
    for (Op op : ops) {
      if (lost.contains(op.seq())) {
        continue;
      }
      String key = key(op.result());
      Trace current = state.get(key);
      if (op.kind() == Kind.CREATE) {
        if (current != null) {
          errors.add(op.seq());
        } else {
          state.put(key, op.result());
        }
        continue;
      }
      if (current == null) {
        errors.add(op.seq());
        continue;
      }
      Trace next =
          switch (op.kind()) {
            case UPDATE -> current.withContent(op.result().content(), op.result().updatedAt());
            case RETIRE -> current.asRetired();
            case REPLAY -> current.replayed();
            case CREATE -> throw new IllegalStateException();
          };
      state.put(key, next);
    }
    return new Expected(state, errors);
  }

  /** {@code state} plus {@code extra}. */
  static Map<String, Trace> with(Map<String, Trace> state, Trace extra) {
    Map<String, Trace> m = new TreeMap<>(state);
    m.put(key(extra), extra);
    return m;
  }

  // ------------------------------------------------------------------ files

  static List<Path> segments(Path dataDir) throws IOException {
    return FileJournal.segments(dataDir.resolve("journal"));
  }

  static Path onlySegment(Path dataDir) throws IOException {
    List<Path> segments = segments(dataDir);
    assertThat(segments).hasSize(1);
    return segments.get(0);
  }

  static List<Path> snapshots(Path dataDir) throws IOException {
    try (Stream<Path> s = Files.list(dataDir.resolve("snapshots"))) {
      return s.filter(p -> p.getFileName().toString().endsWith(".snapshot")).sorted().toList();
    }
  }

  /**
   * Byte offsets of the starts of the lines of {@code bytes}, plus the end: {@code starts[i]} is
   * where line {@code i} begins and {@code starts[n]} is the length, for {@code n} complete lines.
   */
  static long[] lineStarts(byte[] bytes) {
    List<Long> starts = new ArrayList<>();
    starts.add(0L);
    for (int i = 0; i < bytes.length; i++) {
      if (bytes[i] == '\n') {
        starts.add((long) i + 1);
      }
    }
    if (starts.get(starts.size() - 1) != bytes.length) {
      starts.add((long) bytes.length); // a trailing partial line
    }
    return starts.stream().mapToLong(Long::longValue).toArray();
  }

  /** Copies a data directory (journal, snapshots), without its lock file. */
  static Path copy(Path from, Path to) throws IOException {
    try (Stream<Path> walk = Files.walk(from)) {
      for (Path p : walk.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else if (!p.getFileName().toString().equals("lock")) {
          Files.copy(p, target);
        }
      }
    }
    return to;
  }

  /** Rewrites {@code file} to hold only its first {@code size} bytes. */
  static void truncate(Path file, long size) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ch.truncate(size);
    }
  }

  static void append(Path file, byte[] bytes) throws IOException {
    Files.write(file, bytes, StandardOpenOption.APPEND);
  }

  /** XORs the byte at {@code offset} with {@code mask}; returns the new byte. */
  static byte xor(Path file, long offset, int mask) throws IOException {
    try (FileChannel ch =
        FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ByteBuffer b = ByteBuffer.allocate(1);
      ch.read(b, offset);
      byte flipped = (byte) (b.get(0) ^ mask);
      ch.write(ByteBuffer.wrap(new byte[] {flipped}), offset);
      return flipped;
    }
  }

  /** The length of the {@code {"seq":N,} prefix a line needs for its sequence to be readable. */
  static int seqPrefixLength(long seq) {
    return ("{\"seq\":" + seq + ",").length();
  }

  // ------------------------------------------------------------------ damage

  static List<Damage> lossy(List<Damage> damage) {
    return damage.stream().filter(d -> d.kind().lossy()).toList();
  }

  static List<Damage> ofKind(List<Damage> damage, Damage.Kind kind) {
    return damage.stream().filter(d -> d.kind() == kind).toList();
  }

  // ------------------------------------------------------------------ child process

  /**
   * The acknowledgements a killed {@link CrashWriter} printed: uid to content.
   *
   * @param acks every acknowledged add, in print order
   * @param errors lines the child printed that report an error
   */
  record KillResult(Map<String, String> acks, List<String> errors) {}

  /**
   * Starts {@link CrashWriter} on {@code dataDir}, waits until it has printed {@code killAfter}
   * acknowledgements, kills it with SIGKILL ({@link Process#destroyForcibly()}), and collects every
   * acknowledgement it printed before dying. The child writes its output to a file that is polled,
   * so no read can block; never waits longer than {@code timeoutSeconds} and always kills the
   * child.
   */
  static KillResult runAndKill(
      Path dataDir,
      String durability,
      long segmentBytes,
      int threads,
      int killAfter,
      long timeoutSeconds)
      throws IOException, InterruptedException {
    List<String> lines =
        KilledChild.runAndKill(
            dataDir.getParent(),
            CrashWriter.class,
            List.of(
                dataDir.toString(),
                durability,
                Integer.toString(threads),
                Long.toString(segmentBytes)),
            killAfter,
            timeoutSeconds);
    Map<String, String> acks = new LinkedHashMap<>();
    List<String> errors = new ArrayList<>();
    for (String line : lines) {
      String[] parts = line.split(" ", 4);
      if (parts.length == 4 && parts[0].equals("ACK") && parts[3].equals(".")) {
        String old = acks.put(parts[1], parts[2]);
        if (old != null) {
          errors.add("uid acknowledged twice: " + line);
        }
      } else {
        errors.add(line);
      }
    }
    return new KillResult(Collections.unmodifiableMap(acks), List.copyOf(errors));
  }

  /** The parts one after another. */
  static byte[] concat(byte[]... parts) {
    int n = 0;
    for (byte[] p : parts) {
      n += p.length;
    }
    byte[] out = new byte[n];
    int at = 0;
    for (byte[] p : parts) {
      System.arraycopy(p, 0, out, at, p.length);
      at += p.length;
    }
    return out;
  }
}
