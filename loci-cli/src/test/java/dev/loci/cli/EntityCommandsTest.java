package dev.loci.cli;

import static dev.loci.cli.CliRunner.assertOneErrorLine;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code loci capture / entity / review / memory graduate}, stdout, stderr and exit codes. */
class EntityCommandsTest {
  @TempDir Path tmp;
  private CliRunner cli;

  @BeforeEach
  void setUp() {
    cli = new CliRunner(tmp.resolve("data"));
  }

  private JsonNode ok(CliRunner.Result r) {
    assertThat(r.exitCode()).as(r.toString()).isZero();
    assertThat(r.err()).isEmpty();
    return r.json();
  }

  private JsonNode ok(String... args) {
    return ok(cli.run(args));
  }

  @Test
  void captureFromStdin_reviewBothKinds_entityCommands_graduate() {
    JsonNode x =
        ok(
            cli.runWithStdin(
                "We decided to use GF-PTFE pads.\nRated pressure = 16 bar\n",
                "capture",
                "-",
                "--ns",
                "acme",
                "--speaker",
                "dana"));
    assertThat(x.get("candidates").findValuesAsText("kind")).contains("memory", "entity");
    JsonNode queue = ok("review", "--ns", "acme").get("items");
    assertThat(queue.findValuesAsText("rule")).contains("decision_sentence", "fact_value");
    String entity = null;
    for (JsonNode c : queue) {
      if (c.get("kind").asText().equals("entity") && c.get("type").asText().equals("parameter")) {
        entity = c.get("id").asText();
      }
    }
    JsonNode promoted = ok("review", "--ns", "acme", "--promote", entity, "--reviewer", "lead");
    assertThat(promoted.get("entity").get("status").asText()).isEqualTo("active");

    String loop =
        ok(
                "entity",
                "add",
                "--ns",
                "acme",
                "--type",
                "subsystem",
                "--name",
                "cooling loop",
                "--field",
                "medium=water",
                "--active",
                "--reviewer",
                "lead")
            .get("entity")
            .get("id")
            .asText();
    assertThat(ok("entity", "relate", entity, "part_of", loop, "--ns", "acme").get("relationships"))
        .hasSize(1);
    JsonNode set =
        ok("entity", "set", loop, "--ns", "acme", "--field", "medium=glycol", "--reviewer", "lead");
    assertThat(set.get("entity").get("fields").get("medium").get("version").asInt()).isEqualTo(2);
    assertThat(ok("entity", "list", "--ns", "acme", "--status", "active").get("items")).hasSize(2);
    assertThat(ok("entity", "show", loop, "--ns", "acme").get("items")).hasSize(2);

    String memory =
        ok(
                "memory",
                "add",
                "--ns",
                "acme",
                "--type",
                "project",
                "--content",
                "The pump must be quiet",
                "--active",
                "--reviewer",
                "lead")
            .get("memory")
            .get("id")
            .asText();
    JsonNode graduated = ok("memory", "graduate", memory, "--ns", "acme");
    assertThat(graduated.get("status").asText()).isEqualTo("graduated");
    assertThat(graduated.get("graduated_to").asText()).isNotBlank();
  }

  @Test
  void badInput_exitsTwoNamingTheOptionOrField() {
    assertOneErrorLine(
        cli.run("entity", "add", "--ns", "acme", "--type", "widget", "--name", "x"), "type");
    assertOneErrorLine(
        cli.run("entity", "add", "--ns", "acme", "--type", "fact", "--name", "x", "--active"),
        "--reviewer");
    assertOneErrorLine(cli.run("capture", "", "--ns", "acme"), "text");
    assertOneErrorLine(cli.run("capture", "hi", "--ns", "acme", "--target", "all"), "target");
    assertOneErrorLine(cli.run("capture", "hi", "--ns", "acme", "--time", "noon"), "--time");
    assertThat(ok("review", "--ns", "acme").get("items")).isEmpty();
  }
}
