package dev.loci.cli;

import static dev.loci.cli.CliRunner.assertOneErrorLine;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MainTest {
  @TempDir Path tmp;

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "trace",
        "trace add",
        "trace update",
        "trace revise",
        "trace retire",
        "trace get",
        "trace history",
        "trace search",
        "import",
        "export",
        "verify",
        "compact"
      })
  void help_everyCommand_printsUsageAndExitsZero(String command) {
    String[] args = (command + " --help").strip().split(" ");

    CliRunner.Result r = CliRunner.runRaw("", args);

    assertThat(r.exitCode()).isZero();
    assertThat(r.err()).isEmpty();
    assertThat(r.out())
        .startsWith(("Usage: loci " + command).strip())
        .contains("--help", "--version", "--data", "--json", "--durability");
  }

  @Test
  void version_anyBuild_printsLociAndItsVersion() {
    CliRunner.Result r = CliRunner.runRaw("", "--version");

    assertThat(r.exitCode()).isZero();
    assertThat(r.out()).startsWith("loci ");
  }

  @Test
  void run_noArguments_exitsTwoAskingForASubcommand() {
    CliRunner.Result r = CliRunner.runRaw("");

    assertThat(r.exitCode()).isEqualTo(2);
    assertOneErrorLine(r, "subcommand", "loci --help");
  }

  @Test
  void run_mistypedSubcommand_exitsTwoWithASuggestion() {
    CliRunner.Result r = CliRunner.runRaw("", "trace", "ad");

    assertThat(r.exitCode()).isEqualTo(2);
    assertOneErrorLine(r, "'ad'", "did you mean", "add");
  }

  @Test
  void globalOptions_afterTheSubcommand_areInherited() {
    Path data = tmp.resolve("elsewhere");

    CliRunner.Result r =
        CliRunner.runRaw("", "trace", "add", "--content", "1", "--json", "--data", data.toString());

    assertThat(r.exitCode()).isZero();
    assertThat(r.json().get("content").asInt()).isEqualTo(1);
    assertThat(data.resolve("journal")).isDirectory();
  }

  @Test
  void durability_everyPolicy_isAccepted() {
    CliRunner cli = new CliRunner(tmp.resolve("d"));

    for (String policy : new String[] {"always", "none", "interval=5"}) {
      CliRunner.Result r = cli.run("--durability", policy, "trace", "add", "--content", "1");
      assertThat(r.exitCode()).as(policy).isZero();
    }
    assertThat(cli.run("--json", "trace", "search").json().get("items")).hasSize(3);
  }

  @Test
  void durability_unknownPolicy_exitsTwoNamingDurability() {
    CliRunner.Result r = new CliRunner(tmp).run("--durability", "sometimes", "trace", "search");

    assertThat(r.exitCode()).isEqualTo(2);
    assertOneErrorLine(r, "--durability", "sometimes", "interval=<milliseconds>");
  }
}
