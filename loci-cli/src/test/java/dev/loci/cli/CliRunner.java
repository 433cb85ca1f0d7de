package dev.loci.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Runs the CLI in-process against one data directory and captures what it printed. */
final class CliRunner {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final Path dataDir;

  CliRunner(Path dataDir) {
    this.dataDir = dataDir;
  }

  /** What one run printed and returned. */
  record Result(int exitCode, String out, String err) {
    /** Parses stdout as one JSON value. */
    JsonNode json() {
      try {
        return MAPPER.readTree(out);
      } catch (JsonProcessingException e) {
        throw new UncheckedIOException("stdout is not JSON: " + out, e);
      }
    }
  }

  /** Runs {@code loci --data <dir> args...} with empty stdin. */
  Result run(String... args) {
    return runWithStdin("", args);
  }

  /** Runs {@code loci --data <dir> args...} with {@code stdin} as standard input. */
  Result runWithStdin(String stdin, String... args) {
    List<String> all = new ArrayList<>(List.of("--data", dataDir.toString()));
    all.addAll(List.of(args));
    return runRaw(stdin, all.toArray(String[]::new));
  }

  /** Runs {@code loci args...} exactly as given. */
  static Result runRaw(String stdin, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        Main.run(
            new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8),
            args);
    return new Result(
        code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  /** Asserts stderr is one {@code loci:} line, no stack trace, holding every fragment. */
  static void assertOneErrorLine(Result r, String... fragments) {
    assertThat(r.err()).startsWith("loci: ").doesNotContain("\tat ").contains(fragments);
    assertThat(r.err().strip().lines()).hasSize(1);
  }

  /** Creates a token of the legal role for every namespace in the data directory's loci.toml. */
  String legalToken() {
    Result r = run("token", "create", "--role", "legal", "--ns", "*");
    if (r.exitCode() != 0) {
      throw new AssertionError("token create failed: " + r);
    }
    return r.out().strip();
  }

  /** Adds a trace with {@code --json} and returns its uid, failing if the add fails. */
  String add(String ns, String content, String... tags) {
    List<String> args = new ArrayList<>(List.of("--json", "trace", "add", "--ns", ns));
    args.addAll(List.of("--content", content));
    for (String tag : tags) {
      args.addAll(List.of("--tag", tag));
    }
    Result r = run(args.toArray(String[]::new));
    if (r.exitCode() != 0) {
      throw new AssertionError("add failed: " + r);
    }
    return r.json().get("uid").asText();
  }
}
