package dev.loci.cli;

import static dev.loci.cli.CliRunner.assertOneErrorLine;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loci.Loci;
import dev.loci.Namespace;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AdminCommandsTest {
  @TempDir Path tmp;
  private Path data;
  private CliRunner cli;

  @BeforeEach
  void setUp() {
    data = tmp.resolve("loci-data");
    cli = new CliRunner(data);
  }

  @Test
  void verify_cleanDataDir_exitsZero() {
    cli.add("acme", "1");
    cli.add("acme", "2");

    CliRunner.Result human = cli.run("verify");
    CliRunner.Result json = cli.run("--json", "verify");

    assertThat(human.exitCode()).isZero();
    assertThat(human.err()).isEmpty();
    assertThat(human.out())
        .contains("1 segments, 2 batches")
        .endsWith("ok" + System.lineSeparator());
    assertThat(json.exitCode()).isZero();
    assertThat(json.json().get("ok").asBoolean()).isTrue();
    assertThat(json.json().get("batches").asLong()).isEqualTo(2);
    assertThat(json.json().get("damage")).isEmpty();
  }

  @Test
  void verify_byteFlippedInMiddleLine_exitsOneAndListsDamageWithFileAndOffset() throws Exception {
    cli.add("acme", "{\"i\":1}");
    cli.add("acme", "{\"i\":2}");
    cli.add("acme", "{\"i\":3}");
    Path segment = onlySegment();
    long offset = flipByteInSecondLine(segment);

    CliRunner.Result human = cli.run("verify");
    CliRunner.Result json = cli.run("--json", "verify");

    assertThat(human.exitCode()).isEqualTo(1);
    assertThat(human.out())
        .contains("bad_line in " + segment + " at byte " + offset + " (seq 2)")
        .contains("DAMAGED");
    assertOneErrorLine(human, "damage found in " + data);
    assertThat(json.exitCode()).isEqualTo(1);
    assertThat(json.json().get("ok").asBoolean()).isFalse();
    JsonNode damage = json.json().get("damage");
    assertThat(damage).hasSize(1);
    assertThat(damage.get(0).get("kind").asText()).isEqualTo("bad_line");
    assertThat(damage.get(0).get("lossy").asBoolean()).isTrue();
    assertThat(damage.get(0).get("file").asText()).isEqualTo(segment.toString());
    assertThat(damage.get(0).get("offset").asLong()).isEqualTo(offset);
    assertThat(damage.get(0).get("seq").asLong()).isEqualTo(2);
  }

  @Test
  void open_damagedDataDir_warnsOnStderrAndServesTheRest() throws Exception {
    cli.add("acme", "{\"i\":1}");
    cli.add("acme", "{\"i\":2}");
    cli.add("acme", "{\"i\":3}");
    long offset = flipByteInSecondLine(onlySegment());

    CliRunner.Result r = cli.run("--json", "trace", "search", "--ns", "acme");

    assertThat(r.exitCode()).isZero();
    assertThat(r.err()).startsWith("loci: warning: bad_line in ").contains("at byte " + offset);
    assertThat(r.json().get("items")).hasSize(2);
  }

  @Test
  void verify_tornTailOnly_exitsZeroWithAWarning() throws Exception {
    cli.add("acme", "1");
    Files.writeString(
        onlySegment(), "{\"seq\":2,\"ts", StandardCharsets.UTF_8, StandardOpenOption.APPEND);

    CliRunner.Result r = cli.run("verify");

    assertThat(r.exitCode()).isZero();
    assertThat(r.err()).isEmpty();
    assertThat(r.out()).contains("torn_tail in ").contains("ok (warnings only");
  }

  @Test
  void verify_missingDataDir_exitsTwoWithClearMessage() {
    CliRunner.Result r = cli.run("verify");

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertOneErrorLine(r, "no data directory at " + data);
    assertThat(data).doesNotExist();
  }

  @Test
  void verify_dataDirWithoutJournal_exitsTwo() throws Exception {
    Files.createDirectories(data);

    CliRunner.Result r = cli.run("verify");

    assertThat(r.exitCode()).isEqualTo(2);
    assertOneErrorLine(r, "no Loci journal");
  }

  @Test
  void compact_manySegments_reportsSnapshotSeqAndDeletedSegmentsAndKeepsData() {
    try (Loci loci = Loci.builder().dataDir(data).segmentBytes(1024).snapshotAfter(0).open()) {
      for (int i = 0; i < 20; i++) {
        loci.traces().add(Namespace.of("acme"), "{\"i\":" + i + "}", List.of());
      }
    }
    List<Path> segmentsBefore = segments();

    CliRunner.Result json = cli.run("--json", "compact");
    List<Path> segmentsAfter = segments();
    CliRunner.Result human = cli.run("compact");

    assertThat(segmentsBefore).hasSizeGreaterThan(2);
    assertThat(json.exitCode()).isZero();
    assertThat(json.err()).isEmpty();
    assertThat(json.json().get("snapshot_seq").asLong()).isEqualTo(20);
    assertThat(json.json().get("segments_deleted").asLong())
        .isPositive()
        .isEqualTo(segmentsBefore.stream().filter(p -> !segmentsAfter.contains(p)).count());
    assertThat(human.exitCode()).isZero();
    assertThat(human.out()).matches("snapshot at seq 20, \\d+ journal segments deleted\\R");
    assertThat(cli.run("--json", "trace", "search", "--ns", "acme").json().get("items"))
        .hasSize(20);
    assertThat(cli.run("verify").exitCode()).isZero();
  }

  @Test
  void compact_afterDamage_warnsThatVerifyWillNoLongerListIt() throws Exception {
    try (Loci loci = Loci.builder().dataDir(data).segmentBytes(1024).snapshotAfter(0).open()) {
      for (int i = 0; i < 20; i++) {
        loci.traces().add(Namespace.of("acme"), "{\"i\":" + i + "}", List.of());
      }
    }
    Path first = segments().get(0);
    byte[] bytes = Files.readAllBytes(first);
    bytes[10] ^= 0x01; // inside the first line of a sealed segment
    Files.write(first, bytes);
    assertThat(cli.run("verify").exitCode()).isEqualTo(1);

    CliRunner.Result r = cli.run("compact");

    assertThat(r.exitCode()).isZero();
    assertThat(r.err())
        .contains("loci: warning: bad_line in " + first)
        .contains("1 damage report(s) above concerned this journal");
    assertThat(cli.run("verify").exitCode()).isZero();
  }

  @Test
  void open_dataDirLockedByAnotherInstance_exitsOne() {
    try (Loci holder = Loci.open(data)) {
      CliRunner.Result r = cli.run("trace", "search");

      assertThat(r.exitCode()).isEqualTo(1);
      assertOneErrorLine(r, "in use");
    }
  }

  private Path onlySegment() throws Exception {
    List<Path> segments = segments();
    assertThat(segments).hasSize(1);
    return segments.get(0);
  }

  private List<Path> segments() {
    try (Stream<Path> files = Files.list(data.resolve("journal"))) {
      return files.filter(p -> p.toString().endsWith(".jsonl")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Flips one bit inside the second line of {@code segment}; returns where that line starts. */
  private static long flipByteInSecondLine(Path segment) throws Exception {
    byte[] bytes = Files.readAllBytes(segment);
    int start = indexOf(bytes, (byte) '\n', 0) + 1;
    int end = indexOf(bytes, (byte) '\n', start);
    assertThat(indexOf(bytes, (byte) '\n', end + 1)).as("a third line follows").isPositive();
    bytes[start + (end - start) / 2] ^= 0x01;
    Files.write(segment, bytes);
    return start;
  }

  private static int indexOf(byte[] bytes, byte b, int from) {
    for (int i = from; i < bytes.length; i++) {
      if (bytes[i] == b) {
        return i;
      }
    }
    return -1;
  }
}
