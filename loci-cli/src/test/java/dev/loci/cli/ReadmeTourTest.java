package dev.loci.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loci.Loci;
import dev.loci.server.LociServer;
import dev.loci.server.ServerConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's five-minute tour, run: every {@code curl} of its section is sent as written (the
 * host swapped for a real server on a free port, {@code $ID} for the id the first answer gave), and
 * each answers as the tour says it does.
 */
class ReadmeTourTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  @TempDir Path dir;

  @Test
  void theTour_runsAsWritten() throws Exception {
    List<List<String>> curls = tourCurls();
    assertThat(curls).as("curl commands of the tour").hasSizeGreaterThanOrEqualTo(5);
    HttpClient http = HttpClient.newHttpClient();
    List<JsonNode> answers = new ArrayList<>();
    try (LociServer server =
        LociServer.builder(Loci.builder().dataDir(dir))
            .config(ServerConfig.defaults().withHost("127.0.0.1").withPort(0))
            .start()) {
      String id = null;
      for (List<String> curl : curls) {
        HttpRequest request = request(curl, server.port(), id);
        HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(String.join(" ", curl) + "\n" + r.body()).isBetween(200, 299);
        JsonNode answer = MAPPER.readTree(r.body());
        answers.add(answer);
        if (id == null && answer.at("/memory/id").isTextual()) {
          id = answer.at("/memory/id").asText();
        }
      }
    }
    assertThat(answers.get(0).at("/memory/status").asText()).isEqualTo("candidate");
    assertThat(answers.get(1).at("/memory/status").asText()).isEqualTo("active");
    assertThat(answers.get(2).toString()).contains("Alice prefers tea");
    JsonNode recall = answers.get(4);
    JsonNode first = recall.path("items").get(0);
    assertThat(first.at("/node/id").asText()).isEqualTo("terms:2");
    assertThat(first.at("/path/steps/0/via").asText()).isEqualTo("seed");
    assertThat(first.at("/path/supporting_evidence/0/path").asText()).isEqualTo("terms.md");
    assertThat(first.at("/path/supporting_evidence/0/section").asText()).isEqualTo("Delivery");
    assertThat(answers.get(5).path("history")).hasSize(2);
  }

  /** The curl commands of the README's tour section, in order, as words. */
  private static List<List<String>> tourCurls() throws Exception {
    Path readme = DocsCommandsTest.repositoryRoot().resolve("README.md");
    String text = Files.readString(readme, StandardCharsets.UTF_8);
    int start = text.indexOf("\n## A five-minute tour");
    assertThat(start).as("README.md has a tour section").isNotNegative();
    int end = text.indexOf("\n## ", start + 1);
    String tour = text.substring(start, end < 0 ? text.length() : end);
    List<List<String>> out = new ArrayList<>();
    Matcher m = Pattern.compile("```sh\\n(.*?)```", Pattern.DOTALL).matcher(tour);
    while (m.find()) {
      for (String line : m.group(1).split("\n")) {
        List<String> words = DocsCommandsTest.words(line.strip());
        if (!words.isEmpty() && words.get(0).equals("curl")) {
          out.add(words);
        }
      }
    }
    return out;
  }

  /** The request a curl command line sends, to {@code port}, with {@code $ID} replaced. */
  private static HttpRequest request(List<String> curl, int port, String id) {
    String method = "GET";
    String url = null;
    String body = null;
    HttpRequest.Builder b = HttpRequest.newBuilder();
    for (int i = 1; i < curl.size(); i++) {
      String w = curl.get(i);
      switch (w) {
        case "-s" -> {}
        case "-X" -> method = curl.get(++i);
        case "-H" -> {
          String[] header = curl.get(++i).split(":\\s*", 2);
          b.header(header[0], header[1]);
        }
        case "-d" -> {
          body = curl.get(++i);
          if (method.equals("GET")) {
            method = "POST";
          }
        }
        default -> {
          assertThat(w).as("an option the tour test does not know").doesNotStartWith("-");
          url = w;
        }
      }
    }
    assertThat(url).as(String.join(" ", curl)).isNotNull();
    if (url.contains("$ID")) {
      assertThat(id).as("an id from an earlier answer, for " + url).isNotNull();
      url = url.replace("$ID", id);
    }
    url =
        url.replaceFirst(
            "^(https?://)?(localhost|127\\.0\\.0\\.1):7070", "http://127.0.0.1:" + port);
    return b.uri(URI.create(url))
        .method(
            method,
            body == null
                ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body))
        .build();
  }
}
