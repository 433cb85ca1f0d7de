package dev.loci.pathway.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
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
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.function.Supplier;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;
import org.junit.jupiter.api.Test;

/** A packed trace decodes to a trace equal to the one packed, whatever its fields hold. */
class TraceCodecTest {
  private static final String[] WORDS = {
    "", "a", "LOOPING", "crates/x/src/lib.rs", "é", "日本語", "\uD800", "x\u0000y", "tab\there"
  };

  @RepeatedTest(200)
  void decode_randomTrace_equalsTheTracePacked(RepetitionInfo info) {
    long seed = 0x7ace_c0deL + info.getCurrentRepetition();
    SplittableRandom r = new SplittableRandom(seed);
    StringPool pool = new StringPool();
    TraceCodec.Out out = new TraceCodec.Out();
    List<PathwayTrace> traces = new ArrayList<>();
    List<byte[]> packed = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      PathwayTrace t = random(r);
      traces.add(t);
      packed.add(TraceCodec.encode(t, pool, out));
    }
    for (int i = 0; i < traces.size(); i++) {
      PathwayTrace t = traces.get(i);
      byte[] p = packed.get(i);
      assertThat(TraceCodec.decode(t.traceUid(), p, t.unknownFields(), pool.table()))
          .as("seed %d, trace %d", seed, i)
          .isEqualTo(t);
      assertThat(TraceCodec.replayCount(p)).isEqualTo(t.replayCount());
      assertThat(TraceCodec.replaysSucceeded(p)).isEqualTo(t.replaysSucceeded());
      assertThat(TraceCodec.retired(p)).isEqualTo(t.retired());
      assertThat(TraceCodec.superseded(p)).isEqualTo(t.supersededAt().isPresent());
    }
  }

  @Test
  void encode_computedVector_takesBucketCountsNotFloats() {
    PathwayTrace computed = PathwayTrace.builder("review", "crates/a/src/lib.rs").build();
    float[] odd = computed.pathwayVec().values();
    odd[0] += 1e-3f; // no longer the unit vector of whole counts
    PathwayTrace foreign = computed.toBuilder().pathwayVec(PathwayVec.of(odd)).build();
    StringPool pool = new StringPool();
    TraceCodec.Out out = new TraceCodec.Out();

    byte[] small = TraceCodec.encode(computed, pool, out);
    byte[] large = TraceCodec.encode(foreign, pool, out);

    assertThat(large.length - small.length).isGreaterThan(100);
    assertThat(TraceCodec.decode("", small, Map.of(), pool.table())).isEqualTo(computed);
    assertThat(TraceCodec.decode("", large, Map.of(), pool.table())).isEqualTo(foreign);
  }

  @Test
  void withReplayAndAsRetired_copyTheArray_leaveTheOriginal() {
    PathwayTrace t = PathwayTrace.builder("review", "crates/a/src/lib.rs").replayCount(2).build();
    StringPool pool = new StringPool();
    byte[] p = TraceCodec.encode(t, pool, new TraceCodec.Out());

    byte[] replayed = TraceCodec.withReplay(p, false);
    byte[] retired = TraceCodec.asRetired(p);

    assertThat(TraceCodec.replayCount(p)).isEqualTo(2);
    assertThat(TraceCodec.retired(p)).isFalse();
    assertThat(TraceCodec.decode("", replayed, Map.of(), pool.table()))
        .isEqualTo(t.toBuilder().replayCount(3).build());
    assertThat(TraceCodec.decode("", retired, Map.of(), pool.table()))
        .isEqualTo(t.toBuilder().retired(true).build());
  }

  private static PathwayTrace random(SplittableRandom r) {
    Supplier<String> word = () -> WORDS[r.nextInt(WORDS.length)] + r.nextInt(3);
    PathwayTrace.Builder b =
        PathwayTrace.builder("task" + word.get(), word.get())
            .traceUid(new UUID(r.nextLong(), r.nextLong()).toString())
            .version(1 + r.nextInt(1000))
            .createdAt(
                Instant.ofEpochSecond(
                    r.nextLong(-10_000_000_000L, 10_000_000_000L), r.nextInt(1_000_000_000)))
            .replayCount(r.nextInt(Integer.MAX_VALUE))
            .replaysSucceeded(r.nextInt(5))
            .retired(r.nextBoolean())
            .legacy(r.nextBoolean())
            .reducerSummary(word.get() + word.get())
            .finalVerdict(word.get());
    if (r.nextBoolean()) {
      b.signalClass(word.get());
    }
    if (r.nextBoolean()) {
      b.parentTraceUid(Optional.of(word.get()));
    }
    if (r.nextBoolean()) {
      b.supersededAt(Optional.of(Instant.ofEpochSecond(r.nextLong(0, 1L << 40), r.nextInt(1000))));
      b.supersededByTraceUid(Optional.of(word.get()));
    }
    b.ladderAttempts(
        list(
            r,
            () ->
                new LadderAttempt(
                    r.nextInt(100),
                    word.get(),
                    r.nextLong(Long.MAX_VALUE),
                    r.nextBoolean(),
                    r.nextBoolean() ? Optional.of(word.get()) : Optional.empty())));
    b.kbChunks(
        list(
            r,
            () ->
                new KbChunkRef(
                    word.get(),
                    word.get(),
                    r.nextBoolean() ? r.nextDouble() : -0.0,
                    r.nextInt(Integer.MAX_VALUE))));
    b.observerSignals(list(r, () -> new ObserverSignal(word.get(), r.nextInt(50), list(r, word))));
    b.bridgeHits(list(r, () -> new BridgeHit(word.get(), word.get(), word.get())));
    b.subPipelineCalls(
        list(r, () -> SubPipelineCall.of("{\"n\":" + r.nextInt() + ",\"s\":\"é\"}")));
    if (r.nextBoolean()) {
      b.auditConsensus(
          Optional.of(new AuditConsensus(r.nextBoolean(), list(r, word), list(r, word))));
    }
    List<SemanticFlag> flags = new ArrayList<>();
    for (SemanticFlag f : SemanticFlag.values()) {
      if (r.nextInt(4) == 0) {
        flags.add(f);
      }
    }
    b.semanticFlags(flags);
    b.typeHintsUsed(list(r, () -> new TypeHint(word.get(), word.get(), word.get())));
    b.bugFingerprints(
        list(
            r,
            () ->
                new BugFingerprint(
                    SemanticFlag.values()[r.nextInt(SemanticFlag.values().length)],
                    word.get(),
                    word.get(),
                    r.nextInt(100))));
    b.subjectIds(list(r, () -> "subject-" + word.get()));
    switch (r.nextInt(3)) {
      case 0 -> {} // computed from the fields
      case 1 -> b.pathwayVec(PathwayVec.of(new float[PathwayVec.DIMENSION]));
      default -> {
        float[] v = new float[PathwayVec.DIMENSION];
        for (int i = 0; i < v.length; i++) {
          v[i] = (float) r.nextGaussian();
        }
        b.pathwayVec(PathwayVec.of(v));
      }
    }
    if (r.nextInt(4) == 0) {
      Map<String, JsonNode> unknown = new LinkedHashMap<>();
      unknown.put("x_" + r.nextInt(10), JsonNodeFactory.instance.numberNode(r.nextInt()));
      b.unknownFields(unknown);
    }
    return b.build();
  }

  private static <T> List<T> list(SplittableRandom r, Supplier<T> element) {
    int n = r.nextInt(4);
    List<T> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(element.get());
    }
    return out;
  }
}
