package dev.loci;

import static dev.loci.CrashFixture.ALPHA;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import dev.loci.CrashFixture.Built;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A journal cut short anywhere, or with garbage after its last line, reopens to exactly the state
 * after some committed batch, reports the repair as a torn tail, and keeps working.
 */
class CrashTornTailTest {
  private static final int BATCHES = 40;
  private static final int RANDOM_CUTS = 250;

  @TempDir static Path tmp;
  private static Built base;
  private static byte[] journal;
  private static long[] starts;

  @BeforeAll
  static void buildFixture() throws IOException {
    base = CrashFixture.build(tmp.resolve("base"), CrashFixture.BASE_SEED, BATCHES);
    journal = Files.readAllBytes(CrashFixture.onlySegment(base.dir()));
    starts = CrashFixture.lineStarts(journal);
    assertThat(starts).hasSize(BATCHES + 1);
  }

  @Test
  void cut_atEveryByteOfTheLastTwoLines_reopensToTheCommittedPrefix() throws Exception {
    for (long cut = starts[BATCHES - 2]; cut <= journal.length; cut++) {
      checkCut(cut);
    }
  }

  @Test
  void cut_atSeededRandomOffsetsElsewhere_reopensToTheCommittedPrefix() throws Exception {
    long seed = CrashFixture.BASE_SEED ^ 0x5eed;
    Random r = new Random(seed);
    CrashFixture.withSeed(
        seed,
        () -> {
          for (int i = 0; i < RANDOM_CUTS; i++) {
            checkCut(r.nextLong(starts[BATCHES - 2]));
          }
        });
  }

  /** Cuts a copy of the journal at {@code cut} bytes and checks everything a reopen promises. */
  private static void checkCut(long cut) throws IOException {
    Path dir = tmp.resolve("cut-" + cut);
    Path segment =
        dir.resolve("journal").resolve(CrashFixture.onlySegment(base.dir()).getFileName());
    Files.createDirectories(segment.getParent());
    Files.write(segment, Arrays.copyOf(journal, (int) cut));
    int complete = 0;
    while (complete < BATCHES && starts[complete + 1] <= cut) {
      complete++;
    }
    long lineStart = starts[complete];
    boolean inside = cut > lineStart;
    String at = "cut at byte " + cut + " (line " + complete + " starts at " + lineStart + ")";

    VerifyReport before = Loci.verify(dir);
    assertThat(before.ok()).as(at + ": verify before repair %s", before.damage()).isTrue();

    Trace added;
    try (Loci loci = CrashFixture.open(dir)) {
      if (inside) {
        assertThat(loci.openDamage()).as(at).hasSize(1);
        Damage d = loci.openDamage().get(0);
        assertThat(d.kind()).as(at).isEqualTo(Damage.Kind.TORN_TAIL);
        assertThat(d.file()).as(at).isEqualTo(segment);
        assertThat(d.offset()).as(at).isEqualTo(lineStart);
        if (cut >= lineStart + CrashFixture.seqPrefixLength(complete + 1)) {
          assertThat(d.seq()).as(at + ": seq of the torn line").hasValue(complete + 1);
        }
      } else {
        assertThat(loci.openDamage()).as(at).isEmpty();
      }
      assertThat(Files.size(segment)).as(at + ": truncated to the line start").isEqualTo(lineStart);
      assertThat(loci.lastSeq()).as(at).isEqualTo(complete);
      assertThat(CrashFixture.state(loci)).as(at).isEqualTo(base.states().get(complete));
      added = loci.traces().add(ALPHA, "{\"after\":" + cut + "}", List.of("after-cut"));
      assertThat(loci.lastSeq()).as(at).isEqualTo(complete + 1);
    }
    try (Loci loci = CrashFixture.open(dir)) {
      assertThat(loci.openDamage()).as(at + ": second reopen").isEmpty();
      assertThat(CrashFixture.state(loci))
          .as(at + ": second reopen")
          .isEqualTo(CrashFixture.with(base.states().get(complete), added));
    }
    assertThat(Loci.verify(dir).damage()).as(at + ": verify at the end").isEmpty();
  }

  static Stream<Arguments> singleLineGarbage() {
    byte[] last = Arrays.copyOfRange(journal, (int) starts[BATCHES - 1], journal.length);
    String lastLine = new String(last, UTF_8);
    byte[] nextLine =
        lastLine
            .replace("{\"seq\":" + BATCHES + ",", "{\"seq\":" + (BATCHES + 1) + ",")
            .getBytes(UTF_8);
    return Stream.of(
        Arguments.of("one zero byte", new byte[1]),
        Arguments.of("a page of zeros", new byte[4096]),
        Arguments.of("half of the next line", Arrays.copyOf(nextLine, nextLine.length / 2)),
        Arguments.of(
            "the next line without its newline", Arrays.copyOf(nextLine, nextLine.length - 1)),
        Arguments.of("the next line with a bad checksum", badChecksum(nextLine)),
        Arguments.of("a lone newline", new byte[] {'\n'}),
        Arguments.of("text", "garbage".getBytes(UTF_8)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("singleLineGarbage")
  void garbage_afterTheLastLine_isTruncatedAsATornTail(String name, byte[] garbage)
      throws Exception {
    checkGarbage(name, garbage);
  }

  static Stream<Arguments> multiLineGarbage() {
    byte[] zeros = new byte[100];
    byte[] half = Arrays.copyOf(journal, (int) starts[1] / 2);
    return Stream.of(
        Arguments.of(
            "zeros, newline, half a line", CrashFixture.concat(zeros, new byte[] {'\n'}, half)),
        Arguments.of(
            "half a line, newline, zeros", CrashFixture.concat(half, new byte[] {'\n'}, zeros)));
  }

  /**
   * Two unacknowledged writes cut short by a power loss can leave more than one bad line after the
   * last good one (a page of the first never reached the disk, the second is half written). None of
   * them was acknowledged, so all of them are the torn tail.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("multiLineGarbage")
  void garbage_ofSeveralLinesAfterTheLastLine_isTruncatedAsATornTail(String name, byte[] garbage)
      throws Exception {
    checkGarbage(name, garbage);
  }

  private static void checkGarbage(String name, byte[] garbage) throws IOException {
    Path dir = CrashFixture.copy(base.dir(), tmp.resolve("garbage-" + name.replace(' ', '-')));
    Path segment = CrashFixture.onlySegment(dir);
    CrashFixture.append(segment, garbage);
    Map<String, Trace> expected = base.finalState();
    Trace added;
    boolean onlyZeros = true;
    for (byte b : garbage) {
      onlyZeros &= b == 0;
    }
    try (Loci loci = CrashFixture.open(dir)) {
      if (onlyZeros) {
        // zeros are what preallocation leaves: unwritten space, trimmed without a warning
        assertThat(loci.openDamage()).as("zero tail is not damage").isEmpty();
      } else {
        assertThat(CrashFixture.ofKind(loci.openDamage(), Damage.Kind.TORN_TAIL))
            .as("torn tail reported")
            .isNotEmpty()
            .allSatisfy(d -> assertThat(d.file()).isEqualTo(segment));
      }
      assertThat(CrashFixture.lossy(loci.openDamage())).isEmpty();
      assertThat(Files.size(segment)).as("garbage removed").isEqualTo(journal.length);
      assertThat(CrashFixture.state(loci)).isEqualTo(expected);
      added = loci.traces().add(ALPHA, "{\"after\":\"garbage\"}", List.of());
    }
    try (Loci loci = CrashFixture.open(dir)) {
      assertThat(loci.openDamage()).isEmpty();
      assertThat(CrashFixture.state(loci)).isEqualTo(CrashFixture.with(expected, added));
    }
    assertThat(Loci.verify(dir).ok()).isTrue();
  }

  private static byte[] badChecksum(byte[] line) {
    byte[] copy = line.clone();
    int digit = copy.length - 4; // inside the 8 hex digits before "}\n
    copy[digit] = (byte) (copy[digit] == '0' ? '1' : '0');
    return copy;
  }
}
