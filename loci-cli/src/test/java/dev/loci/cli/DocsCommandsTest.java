package dev.loci.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loci.mcp.LociMcpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Commands shown in the documentation still run: every {@code loci ...} command line in a code
 * block of README.md, docs/*.md and the modules' READMEs parses with the command line as it is now
 * (subcommands, options and their values), every {@code curl} names a route and method of the
 * OpenAPI document (or {@code /mcp}), and every MCP client configuration ({@code "mcpServers"})
 * starts a {@code loci} command that parses.
 */
class DocsCommandsTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final Pattern FENCE =
      Pattern.compile("```([A-Za-z0-9_-]*)\\n(.*?)```", Pattern.DOTALL);
  private static final Set<String> SHELL_OPERATORS =
      Set.of("|", "||", "&&", ";", ">", ">>", "2>", "2>&1", "<", "&");
  private static final Set<String> CURL_VALUE_OPTIONS =
      Set.of(
          "-H",
          "--header",
          "-d",
          "--data",
          "--data-raw",
          "--data-binary",
          "--json",
          "-X",
          "--request",
          "-o",
          "--output",
          "-u",
          "--user",
          "-w",
          "--write-out",
          "-F",
          "--form",
          "-T",
          "--upload-file",
          "-m",
          "--max-time");
  private static final Set<String> CURL_BODY_OPTIONS =
      Set.of("-d", "--data", "--data-raw", "--data-binary", "--json", "-F", "--form");

  private static Path root;
  private static JsonNode openApi;

  /** The directory holding mvnw and docs/, above the working directory. */
  static Path repositoryRoot() {
    Path at = Path.of("").toAbsolutePath();
    while (at != null
        && !(Files.exists(at.resolve("mvnw")) && Files.isDirectory(at.resolve("docs")))) {
      at = at.getParent();
    }
    assertThat(at).as("the repository root above " + Path.of("").toAbsolutePath()).isNotNull();
    return at;
  }

  @BeforeAll
  static void load() throws IOException {
    root = repositoryRoot();
    try (InputStream in =
        DocsCommandsTest.class.getResourceAsStream("/dev/loci/server/openapi.json")) {
      assertThat(in).as("the server's OpenAPI document").isNotNull();
      openApi = MAPPER.readTree(in);
    }
  }

  /** One command found in a document. */
  record Found(String where, List<String> words) {
    @Override
    public String toString() {
      return where + ": " + String.join(" ", words);
    }
  }

  @Test
  void everyLociCommandInTheDocs_parses() {
    List<Found> commands = commands("loci");
    assertThat(commands).as("loci commands found in the docs").hasSizeGreaterThan(20);
    List<String> broken = new ArrayList<>();
    for (Found c : commands) {
      problem(c.words().subList(1, c.words().size())).ifPresent(p -> broken.add(c + "\n    " + p));
    }
    assertThat(broken).as("commands in the docs that no longer parse").isEmpty();
  }

  @Test
  void everyCurlInTheDocs_namesARouteOfTheOpenApiDocument() {
    List<Found> curls = commands("curl");
    assertThat(curls).as("curl commands found in the docs").hasSizeGreaterThan(3);
    List<String> broken = new ArrayList<>();
    for (Found c : curls) {
      String problem = route(c.words());
      if (problem != null) {
        broken.add(c + "\n    " + problem);
      }
    }
    assertThat(broken).as("curl commands in the docs without such a route").isEmpty();
  }

  @Test
  void everyMcpClientConfigurationInTheDocs_startsACommandThatParses() throws IOException {
    List<String> broken = new ArrayList<>();
    int found = 0;
    for (Path doc : documents()) {
      Matcher m = FENCE.matcher(Files.readString(doc, StandardCharsets.UTF_8));
      while (m.find()) {
        if (!m.group(2).contains("\"mcpServers\"")) {
          continue;
        }
        JsonNode servers = MAPPER.readTree(m.group(2)).path("mcpServers");
        for (Iterator<Map.Entry<String, JsonNode>> it = servers.fields(); it.hasNext(); ) {
          Map.Entry<String, JsonNode> server = it.next();
          found++;
          String where = root.relativize(doc) + " " + server.getKey() + ": ";
          JsonNode entry = server.getValue();
          if (entry.has("url")) {
            String problem = route(List.of("curl", "-X", "POST", entry.path("url").asText()));
            if (problem != null) {
              broken.add(where + problem);
            }
            continue;
          }
          assertThat(entry.path("command").asText()).as(where).endsWith("loci");
          List<String> args = new ArrayList<>();
          entry.path("args").forEach(a -> args.add(a.asText()));
          problem(args).ifPresent(p -> broken.add(where + p));
        }
      }
    }
    assertThat(found).as("MCP client configurations found in the docs").isPositive();
    assertThat(broken).isEmpty();
  }

  @Test
  void theChecks_catchWhatNoLongerRuns() {
    assertThat(problem(List.of("no-such-command"))).isPresent();
    assertThat(problem(List.of("trace", "search", "--no-such-option"))).isPresent();
    assertThat(problem(List.of("trace", "search", "--ns", "demo"))).isEmpty();
    assertThat(route(List.of("curl", "localhost:7070/v1/ns/demo/no-such-route"))).isNotNull();
    assertThat(route(List.of("curl", "-X", "DELETE", "localhost:7070/v1/ns/demo/traces")))
        .isNotNull();
    assertThat(route(List.of("curl", "-s", "localhost:7070/v1/ns/demo/traces?tag=x"))).isNull();
  }

  /** Why {@code args} does not parse with the command line, if it does not. */
  private static java.util.Optional<String> problem(List<String> args) {
    try {
      Main.parser().parseArgs(args.toArray(String[]::new));
      return java.util.Optional.empty();
    } catch (CommandLine.ParameterException e) {
      return java.util.Optional.of(e.getMessage());
    }
  }

  /** Why a curl command names no documented route, or null if it names one. */
  private static String route(List<String> words) {
    String method = null;
    String url = null;
    boolean body = false;
    for (int i = 1; i < words.size(); i++) {
      String w = words.get(i);
      if (CURL_VALUE_OPTIONS.contains(w)) {
        if (w.equals("-X") || w.equals("--request")) {
          method = words.get(i + 1);
        }
        body |= CURL_BODY_OPTIONS.contains(w);
        i++;
      } else if (!w.startsWith("-") && url == null) {
        url = w;
      }
    }
    if (url == null) {
      return "no URL";
    }
    String path = url.replaceFirst("^(https?://)?[^/]*", "").replaceFirst("\\?.*$", "");
    String verb = (method != null ? method : body ? "POST" : "GET").toLowerCase(Locale.ROOT);
    if (path.equals(LociMcpServer.PATH)) {
      return verb.equals("post") ? null : verb + " " + path + ": /mcp takes POST";
    }
    for (Iterator<Map.Entry<String, JsonNode>> it = openApi.path("paths").fields();
        it.hasNext(); ) {
      Map.Entry<String, JsonNode> p = it.next();
      String regex = Pattern.quote(p.getKey()).replaceAll("\\{[^}]+}", "\\\\E[^/]+\\\\Q");
      if (path.matches(regex)) {
        return p.getValue().has(verb)
            ? null
            : p.getKey() + " has no " + verb.toUpperCase(Locale.ROOT);
      }
    }
    return "no route " + path + " in the OpenAPI document";
  }

  /** The commands starting with {@code program} in the code blocks of every document. */
  private static List<Found> commands(String program) {
    List<Found> out = new ArrayList<>();
    for (Path doc : documents()) {
      String text;
      try {
        text = Files.readString(doc, StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      Matcher m = FENCE.matcher(text);
      while (m.find()) {
        int firstLine = text.substring(0, m.start(2)).split("\n", -1).length;
        String[] lines = m.group(2).replaceAll("\\\\\\n\\s*", " ").split("\n");
        for (int i = 0; i < lines.length; i++) {
          List<String> words = words(lines[i].strip().replaceFirst("^\\$ ", ""));
          int start = 0;
          while (start < words.size() && words.get(start).matches("[A-Z_][A-Z0-9_]*=.*")) {
            start++; // environment assignments before the command
          }
          for (int k = start; k < words.size(); k++) {
            String w = words.get(k);
            boolean isProgram =
                program.equals("loci")
                    ? w.equals("./loci") || w.equals("loci") || w.endsWith("/loci")
                    : w.equals(program);
            boolean atStart = k == start || SHELL_OPERATORS.contains(words.get(k - 1));
            if (isProgram && atStart) {
              int end = k + 1;
              while (end < words.size() && !SHELL_OPERATORS.contains(words.get(end))) {
                end++;
              }
              out.add(
                  new Found(
                      root.relativize(doc) + ":" + (firstLine + i),
                      List.copyOf(words.subList(k, end))));
            }
          }
        }
      }
    }
    return out;
  }

  /** README.md, docs/*.md and every module's README.md. */
  private static List<Path> documents() {
    List<Path> docs = new ArrayList<>();
    docs.add(root.resolve("README.md"));
    try (Stream<Path> pages = Files.list(root.resolve("docs"));
        Stream<Path> modules = Files.list(root)) {
      pages.filter(p -> p.toString().endsWith(".md")).sorted().forEach(docs::add);
      modules
          .map(p -> p.resolve("README.md"))
          .filter(p -> Files.isRegularFile(p) && !p.getParent().equals(root))
          .sorted()
          .forEach(docs::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return docs;
  }

  /**
   * A shell line's words: quotes group and are removed, a backslash escapes the next character
   * outside single quotes, and an unquoted {@code #} at the start of a word ends the line.
   */
  static List<String> words(String line) {
    List<String> out = new ArrayList<>();
    StringBuilder w = new StringBuilder();
    boolean inWord = false;
    char quote = 0;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (quote != 0) {
        if (c == quote) {
          quote = 0;
        } else if (c == '\\' && quote == '"' && i + 1 < line.length()) {
          w.append(line.charAt(++i));
        } else {
          w.append(c);
        }
      } else if (c == '\'' || c == '"') {
        quote = c;
        inWord = true;
      } else if (c == '\\' && i + 1 < line.length()) {
        w.append(line.charAt(++i));
        inWord = true;
      } else if (Character.isWhitespace(c)) {
        if (inWord) {
          out.add(w.toString());
          w.setLength(0);
          inWord = false;
        }
      } else if (c == '#' && !inWord) {
        break;
      } else {
        w.append(c);
        inWord = true;
      }
    }
    if (inWord) {
      out.add(w.toString());
    }
    return out;
  }
}
