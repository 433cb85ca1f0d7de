package dev.loci.cli;

import static dev.loci.cli.CliRunner.assertOneErrorLine;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InteropCommandsTest {
  private static final String FIXTURE =
      String.join(
          "\n",
          "{\"op\":\"add\",\"trace\":{\"uid\":\"t-1\",\"content\":{\"a\":1},\"predecessor_uid\":\"\","
              + "\"created_at_ns\":1700000000000000000,\"updated_at_ns\":1700000000000000000,"
              + "\"retired\":false,\"replay_count\":1,\"tags\":[\"x\"]}}",
          "this is not json",
          "{\"op\":\"revise\",\"trace\":{\"uid\":\"t-2\",\"content\":{\"a\":2},"
              + "\"predecessor_uid\":\"t-1\",\"created_at_ns\":1700000001000000000}}",
          "{\"op\":\"update\",\"uid\":\"ghost\",\"content\":{\"b\":1}}",
          "",
          "{\"op\":\"retire\",\"uid\":\"t-1\"}",
          "{\"op\":\"frobnicate\"}",
          "");

  @TempDir Path tmp;
  private Path data;
  private CliRunner cli;

  @BeforeEach
  void setUp() {
    data = tmp.resolve("loci-data");
    cli = new CliRunner(data);
  }

  @Test
  void import_fixtureWithBadLines_appliesGoodLinesAndReportsSkipsOnStderr() throws Exception {
    Path file = fixture();

    CliRunner.Result r =
        cli.run("import", "--format", "adr004-jsonl", "--ns", "acme", file.toString());

    assertThat(r.exitCode()).isZero();
    assertThat(r.out().strip()).isEqualTo("imported 3 of 6 lines into acme, 3 skipped");
    List<String> errLines = r.err().strip().lines().toList();
    assertThat(errLines).hasSize(3);
    assertThat(errLines.get(0)).startsWith("loci: line 2 skipped: ").contains("JSON");
    assertThat(errLines.get(1)).startsWith("loci: line 4 skipped: ").contains("ghost");
    assertThat(errLines.get(2)).startsWith("loci: line 7 skipped: ").contains("frobnicate");
    JsonNode t1 = cli.run("--json", "trace", "get", "t-1", "--ns", "acme").json();
    assertThat(t1.get("retired").asBoolean()).isTrue();
    assertThat(t1.get("created_at").asText()).isEqualTo("2023-11-14T22:13:20.000000Z");
    JsonNode chain =
        cli.run(
                "--json",
                "trace",
                "history",
                "t-2",
                "--ns",
                "acme",
                "--legal-token",
                cli.legalToken())
            .json();
    assertThat(chain).hasSize(2);
  }

  @Test
  void import_jsonMode_putsSkipsInTheJson() throws Exception {
    Path file = fixture();

    CliRunner.Result r = cli.run("--json", "import", "--ns", "acme", file.toString());

    assertThat(r.exitCode()).isZero();
    assertThat(r.err()).isEmpty();
    JsonNode report = r.json();
    assertThat(report.get("namespace").asText()).isEqualTo("acme");
    assertThat(report.get("lines").asLong()).isEqualTo(6);
    assertThat(report.get("applied").asLong()).isEqualTo(3);
    assertThat(report.get("skipped")).hasSize(3);
    assertThat(report.get("skipped").get(1).get("line").asLong()).isEqualTo(4);
    assertThat(report.get("skipped").get(1).get("reason").asText()).contains("ghost");
  }

  @Test
  void import_unknownFormat_exitsTwoAndTouchesNothing() throws Exception {
    Path file = fixture();

    CliRunner.Result r = cli.run("import", "--format", "csv", file.toString());

    assertThat(r.exitCode()).isEqualTo(2);
    assertOneErrorLine(r, "--format", "adr004-jsonl", "csv");
    assertThat(data).doesNotExist();
  }

  @Test
  void import_missingFile_exitsTwoNamingIt() {
    CliRunner.Result r = cli.run("import", "--ns", "acme", tmp.resolve("nope.jsonl").toString());

    assertThat(r.exitCode()).isEqualTo(2);
    assertOneErrorLine(r, "nope.jsonl");
    assertThat(data).doesNotExist();
  }

  @Test
  void exportThenImport_intoAnotherNamespace_roundTripsEveryTrace() throws Exception {
    String plain = cli.add("acme", "{\"fact\":\"tea\"}", "pref", "drink");
    String revised =
        cli.run("--json", "trace", "revise", plain, "--ns", "acme", "--content", "{\"v\":2}")
            .json()
            .get("uid")
            .asText();
    String retired = cli.add("acme", "[1,\"two\",null]");
    cli.run("trace", "retire", retired, "--ns", "acme");
    cli.run("trace", "add", "--ns", "acme", "--uid", "fixed-1", "--content", "true");
    cli.run("trace", "add", "--ns", "acme", "--uid", "fixed-1", "--content", "true");
    cli.run("trace", "update", revised, "--ns", "acme", "--content", "{\"v\":3}");
    Path file = tmp.resolve("acme.jsonl");

    CliRunner.Result toFile = cli.run("export", "--ns", "acme", "--out", file.toString());
    CliRunner.Result toStdout = cli.run("export", "--format", "adr004-jsonl", "--ns", "acme");
    CliRunner.Result imported = cli.run("--json", "import", "--ns", "copy", file.toString());

    assertThat(toFile.exitCode()).isZero();
    assertThat(toFile.out().strip()).isEqualTo("exported 4 traces from acme to " + file);
    assertThat(toStdout.exitCode()).isZero();
    assertThat(toStdout.out()).isEqualTo(Files.readString(file, StandardCharsets.UTF_8));
    assertThat(toStdout.out().lines()).hasSize(4);
    assertThat(imported.json().get("applied").asLong()).isEqualTo(4);
    assertThat(imported.json().get("skipped")).isEmpty();
    List<JsonNode> original = everyTrace("acme");
    List<JsonNode> copy = everyTrace("copy");
    assertThat(copy).hasSize(4).isEqualTo(original);
  }

  @Test
  void export_jsonModeToFile_printsSummaryAsJson() {
    cli.add("acme", "1");
    Path file = tmp.resolve("out.jsonl");

    CliRunner.Result r = cli.run("--json", "export", "--ns", "acme", "--out", file.toString());

    assertThat(r.exitCode()).isZero();
    assertThat(r.json().get("exported").asLong()).isEqualTo(1);
    assertThat(r.json().get("out").asText()).isEqualTo(file.toString());
    assertThat(file).exists();
  }

  @Test
  void export_unknownFormat_exitsTwo() {
    CliRunner.Result r = cli.run("export", "--format", "parquet");

    assertThat(r.exitCode()).isEqualTo(2);
    assertOneErrorLine(r, "--format", "parquet");
  }

  private Path fixture() throws Exception {
    Path file = tmp.resolve("go-store.jsonl");
    Files.writeString(file, FIXTURE, StandardCharsets.UTF_8);
    return file;
  }

  /** Every trace of {@code ns} as JSON, sorted by uid, with the namespace field removed. */
  private List<JsonNode> everyTrace(String ns) {
    JsonNode items =
        cli.run("--json", "trace", "search", "--ns", ns, "--include-retired").json().get("items");
    List<JsonNode> traces = new ArrayList<>();
    items.forEach(
        t -> {
          assertThat(t.get("namespace").asText()).isEqualTo(ns);
          traces.add(((ObjectNode) t.deepCopy()).without("namespace"));
        });
    traces.sort((a, b) -> a.get("uid").asText().compareTo(b.get("uid").asText()));
    return traces;
  }
}
