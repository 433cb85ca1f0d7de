package dev.loci.cli;

import static dev.loci.cli.CliRunner.assertOneErrorLine;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.NamespaceScope;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TraceCommandsTest {
  @TempDir Path tmp;
  private Path data;
  private CliRunner cli;

  @BeforeEach
  void setUp() {
    data = tmp.resolve("loci-data");
    cli = new CliRunner(data);
  }

  @Test
  void readCommands_missingDataDirectory_exitTwoAndCreateNothing() {
    for (String[] args :
        List.of(
            new String[] {"trace", "get", "some-uid"},
            new String[] {"trace", "history", "some-uid"},
            new String[] {"trace", "search"},
            new String[] {"export"},
            new String[] {"compact"})) {
      CliRunner.Result r = cli.run(args);
      assertThat(r.exitCode()).as(String.join(" ", args)).isEqualTo(2);
      assertThat(r.err()).contains("data: no Loci data directory at");
    }
    assertThat(data).doesNotExist();
  }

  @Test
  void add_humanMode_printsOneLabelledBlock() {
    CliRunner.Result r =
        cli.run("trace", "add", "--ns", "acme", "--content", "{\"fact\": \"tea\"}", "--tag", "a");

    assertThat(r.exitCode()).isZero();
    assertThat(r.err()).isEmpty();
    assertThat(r.out())
        .containsPattern("(?m)^uid +\\S+$")
        .containsPattern("(?m)^namespace +acme$")
        .containsPattern("(?m)^created +\\S+Z$")
        .containsPattern("(?m)^updated +\\S+Z$")
        .containsPattern("(?m)^retired +no$")
        .containsPattern("(?m)^replay count +1$")
        .containsPattern("(?m)^tags +a$")
        .containsPattern("(?m)^content +\\{\"fact\":\"tea\"}$")
        .doesNotContain("predecessor");
  }

  @Test
  void add_jsonMode_printsSnakeCaseTraceWithContentEmbedded() {
    CliRunner.Result r =
        cli.run(
            "--json",
            "trace",
            "add",
            "--ns",
            "acme",
            "--content",
            "{\"n\":[1,2]}",
            "--tag",
            "a",
            "--tag",
            "b");

    assertThat(r.exitCode()).isZero();
    assertThat(r.err()).isEmpty();
    JsonNode t = r.json();
    assertThat(t.get("uid").asText()).isNotBlank();
    assertThat(t.get("namespace").asText()).isEqualTo("acme");
    assertThat(t.get("content").isObject()).isTrue();
    assertThat(t.get("content").get("n").get(1).asInt()).isEqualTo(2);
    assertThat(t.has("predecessor_uid")).isFalse();
    assertThat(Instant.parse(t.get("created_at").asText())).isBeforeOrEqualTo(Instant.now());
    assertThat(t.get("updated_at").asText()).isEqualTo(t.get("created_at").asText());
    assertThat(t.get("retired").asBoolean()).isFalse();
    assertThat(t.get("replay_count").asInt()).isEqualTo(1);
    assertThat(t.get("tags").toString()).isEqualTo("[\"a\",\"b\"]");
  }

  @Test
  void add_withoutNs_usesDefaultNamespace() {
    CliRunner.Result r = cli.run("--json", "trace", "add", "--content", "1");

    assertThat(r.exitCode()).isZero();
    assertThat(r.json().get("namespace").asText()).isEqualTo("default");
  }

  @Test
  void add_sameUidTwice_raisesReplayCountAndKeepsFirstContent() {
    cli.run("trace", "add", "--ns", "acme", "--uid", "fact-1", "--content", "\"first\"");

    CliRunner.Result r =
        cli.run(
            "--json", "trace", "add", "--ns", "acme", "--uid", "fact-1", "--content", "\"second\"");

    assertThat(r.exitCode()).isZero();
    assertThat(r.json().get("uid").asText()).isEqualTo("fact-1");
    assertThat(r.json().get("replay_count").asInt()).isEqualTo(2);
    assertThat(r.json().get("content").asText()).isEqualTo("first");
  }

  @Test
  void add_contentDash_readsContentFromStdin() {
    CliRunner.Result r =
        cli.runWithStdin("{\"from\": \"stdin\"}\n", "--json", "trace", "add", "--content", "-");

    assertThat(r.exitCode()).isZero();
    assertThat(r.json().get("content").toString()).isEqualTo("{\"from\":\"stdin\"}");
  }

  @Test
  void add_contentAtFile_readsContentFromFile() throws Exception {
    Path file = tmp.resolve("content.json");
    Files.writeString(file, "{\"from\": \"file\"}", StandardCharsets.UTF_8);

    CliRunner.Result r = cli.run("--json", "trace", "add", "--content", "@" + file);

    assertThat(r.exitCode()).isZero();
    assertThat(r.json().get("content").toString()).isEqualTo("{\"from\":\"file\"}");
  }

  @Test
  void add_contentAtMissingFile_exitsTwoNamingTheFile() {
    CliRunner.Result r = cli.run("trace", "add", "--content", "@" + tmp.resolve("nope.json"));

    assertThat(r.exitCode()).isEqualTo(2);
    assertOneErrorLine(r, "--content", "nope.json");
  }

  @Test
  void add_badJsonContent_exitsTwoNamingContentAndWritesNothing() {
    cli.add("acme", "{\"ok\":true}");
    long seqBefore = lastSeq();

    CliRunner.Result r = cli.run("trace", "add", "--ns", "acme", "--content", "{\"broken\":");

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertOneErrorLine(r, "loci: content:");
    assertThat(lastSeq()).isEqualTo(seqBefore);
    assertThat(count("acme")).isEqualTo(1);
  }

  @Test
  void add_badNamespace_exitsTwoWithTheNamespaceRule() {
    CliRunner.Result r = cli.run("trace", "add", "--ns", "Acme!", "--content", "1");

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertOneErrorLine(r, "--ns", "namespace", Namespace.RULE, "Acme!");
  }

  @Test
  void add_blankTag_exitsTwoNamingTags() {
    CliRunner.Result r = cli.run("trace", "add", "--content", "1", "--tag", " ");

    assertThat(r.exitCode()).isEqualTo(2);
    assertOneErrorLine(r, "tags");
  }

  @Test
  void add_missingContent_exitsTwoAsUsageError() {
    CliRunner.Result r = cli.run("trace", "add");

    assertThat(r.exitCode()).isEqualTo(2);
    assertOneErrorLine(r, "--content", "loci trace add --help");
  }

  @Test
  void update_existingTrace_replacesContentInPlace() {
    String uid = cli.add("acme", "{\"v\":1}");

    CliRunner.Result human =
        cli.run("trace", "update", uid, "--ns", "acme", "--content", "{\"v\":2}");
    CliRunner.Result json =
        cli.run("--json", "trace", "update", uid, "--ns", "acme", "--content", "{\"v\":3}");

    assertThat(human.exitCode()).isZero();
    assertThat(human.out()).contains(uid).containsPattern("(?m)^content +\\{\"v\":2}$");
    assertThat(json.exitCode()).isZero();
    assertThat(json.json().get("uid").asText()).isEqualTo(uid);
    assertThat(json.json().get("content").get("v").asInt()).isEqualTo(3);
    assertThat(json.json().has("predecessor_uid")).isFalse();
  }

  @Test
  void history_afterAddAndRevise_listsChainNewestFirst() {
    String first = cli.add("acme", "{\"v\":1}", "pref");
    CliRunner.Result revised =
        cli.run(
            "--json",
            "trace",
            "revise",
            first,
            "--ns",
            "acme",
            "--content",
            "{\"v\":2}",
            "--tag",
            "pref");
    String second = revised.json().get("uid").asText();

    String legal = cli.legalToken();
    CliRunner.Result refused = cli.run("--json", "trace", "history", second, "--ns", "acme");
    CliRunner.Result json =
        cli.run("--json", "trace", "history", second, "--ns", "acme", "--legal-token", legal);
    CliRunner.Result human =
        cli.run("trace", "history", second, "--ns", "acme", "--legal-token", legal);

    assertThat(refused.exitCode()).isEqualTo(2);
    assertOneErrorLine(refused, "--legal-token", "personal data");

    assertThat(revised.exitCode()).isZero();
    assertThat(revised.json().get("predecessor_uid").asText()).isEqualTo(first);
    assertThat(json.exitCode()).isZero();
    JsonNode chain = json.json();
    assertThat(chain.isArray()).isTrue();
    assertThat(chain).hasSize(2);
    assertThat(chain.get(0).get("uid").asText()).isEqualTo(second);
    assertThat(chain.get(0).get("predecessor_uid").asText()).isEqualTo(first);
    assertThat(chain.get(1).get("uid").asText()).isEqualTo(first);
    assertThat(chain.get(1).has("predecessor_uid")).isFalse();
    assertThat(human.exitCode()).isZero();
    assertThat(human.out().split("\n\n")).hasSize(2);
    assertThat(human.out()).containsPattern("(?m)^predecessor +" + first + "$");
    assertThat(human.out().indexOf(second)).isLessThan(human.out().lastIndexOf(first));
  }

  @Test
  void retire_thenSearch_hidesItUnlessIncludeRetired() {
    String kept = cli.add("acme", "{\"k\":1}");
    String retired = cli.add("acme", "{\"k\":2}");

    CliRunner.Result retire = cli.run("trace", "retire", retired, "--ns", "acme");
    CliRunner.Result search = cli.run("--json", "trace", "search", "--ns", "acme");
    CliRunner.Result all =
        cli.run("--json", "trace", "search", "--ns", "acme", "--include-retired");

    assertThat(retire.exitCode()).isZero();
    assertThat(retire.out()).containsPattern("(?m)^retired +yes$");
    assertThat(uids(search.json().get("items"))).containsExactly(kept);
    assertThat(uids(all.json().get("items"))).containsExactlyInAnyOrder(kept, retired);
  }

  @Test
  void get_existingTrace_printsItInBothModes() {
    String uid = cli.add("acme", "[1,2,3]", "x");

    CliRunner.Result human = cli.run("trace", "get", uid, "--ns", "acme");
    CliRunner.Result json = cli.run("trace", "get", uid, "--ns", "acme", "--json");

    assertThat(human.exitCode()).isZero();
    assertThat(human.out()).containsPattern("(?m)^uid +" + uid + "$").contains("[1,2,3]");
    assertThat(json.exitCode()).isZero();
    assertThat(json.json().get("content").isArray()).isTrue();
    assertThat(json.json().get("tags").get(0).asText()).isEqualTo("x");
  }

  @Test
  void get_unknownUid_exitsTwoNamingTheUid() {
    cli.add("other", "1");
    CliRunner.Result r = cli.run("trace", "get", "no-such-uid", "--ns", "acme");

    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertOneErrorLine(r, "no-such-uid");
  }

  @Test
  void get_uidFromAnotherNamespace_exitsTwo() {
    String uid = cli.add("acme", "1");

    CliRunner.Result r = cli.run("trace", "get", uid, "--ns", "other");

    assertThat(r.exitCode()).isEqualTo(2);
    assertOneErrorLine(r, uid);
  }

  @Test
  void writes_unknownUid_exitTwoAndWriteNothing() {
    cli.add("acme", "1");
    String legal = cli.legalToken();
    long seqBefore = lastSeq();

    List<CliRunner.Result> results =
        List.of(
            cli.run("trace", "update", "ghost", "--ns", "acme", "--content", "1"),
            cli.run("trace", "revise", "ghost", "--ns", "acme", "--content", "1"),
            cli.run("trace", "retire", "ghost", "--ns", "acme"),
            cli.run("trace", "history", "ghost", "--ns", "acme", "--legal-token", legal));

    for (CliRunner.Result r : results) {
      assertThat(r.exitCode()).as(r.toString()).isEqualTo(2);
      assertOneErrorLine(r, "ghost");
    }
    assertThat(lastSeq()).isEqualTo(seqBefore);
  }

  @Test
  void search_scopeWithStar_includesDescendantNamespaces() {
    String parent = cli.add("acme", "1");
    String child = cli.add("acme.support", "2");
    cli.add("other", "3");

    CliRunner.Result exact = cli.run("--json", "trace", "search", "--ns", "acme");
    CliRunner.Result tree = cli.run("--json", "trace", "search", "--ns", "acme.*");

    assertThat(uids(exact.json().get("items"))).containsExactly(parent);
    assertThat(uids(tree.json().get("items"))).containsExactlyInAnyOrder(parent, child);
  }

  @Test
  void search_tagContainsAndTimeFilters_returnOnlyMatches() {
    String match = cli.add("acme", "{\"fact\":\"green tea\"}", "pref", "drink");
    cli.add("acme", "{\"fact\":\"green tea\"}", "drink");
    cli.add("acme", "{\"fact\":\"coffee\"}", "pref");

    CliRunner.Result r =
        cli.run(
            "--json",
            "trace",
            "search",
            "--ns",
            "acme",
            "--tag",
            "pref",
            "--contains",
            "tea",
            "--from",
            "2000-01-01T00:00:00Z",
            "--before",
            "2999-01-01T00:00:00Z");
    CliRunner.Result future =
        cli.run("--json", "trace", "search", "--ns", "acme", "--from", "2999-01-01T00:00:00Z");

    assertThat(r.exitCode()).isZero();
    assertThat(uids(r.json().get("items"))).containsExactly(match);
    assertThat(r.json().get("next_cursor").isNull()).isTrue();
    assertThat(future.json().get("items")).isEmpty();
  }

  @Test
  void search_limitAndCursor_pageThroughEveryTrace() {
    List<String> added = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      added.add(cli.add("acme", Integer.toString(i)));
    }

    List<String> seen = new ArrayList<>();
    List<String> args = new ArrayList<>(List.of("--json", "trace", "search", "--ns", "acme"));
    args.addAll(List.of("--limit", "2"));
    JsonNode page = cli.run(args.toArray(String[]::new)).json();
    seen.addAll(uids(page.get("items")));
    int pages = 1;
    while (!page.get("next_cursor").isNull()) {
      List<String> next = new ArrayList<>(args);
      next.addAll(List.of("--cursor", page.get("next_cursor").asText()));
      page = cli.run(next.toArray(String[]::new)).json();
      seen.addAll(uids(page.get("items")));
      pages++;
    }

    assertThat(pages).isEqualTo(3);
    assertThat(seen).containsExactlyInAnyOrderElementsOf(added).doesNotHaveDuplicates();
  }

  @Test
  void search_humanMode_printsBlocksAndNextCursor() {
    cli.add("acme", "1");
    cli.add("acme", "2");

    CliRunner.Result r = cli.run("trace", "search", "--ns", "acme", "--limit", "1");

    assertThat(r.exitCode()).isZero();
    assertThat(r.out()).containsPattern("(?m)^uid ").containsPattern("(?m)^next cursor: \\S+$");
  }

  @Test
  void search_nothingFound_saysSo() {
    cli.add("other", "1");
    CliRunner.Result human = cli.run("trace", "search", "--ns", "acme");
    CliRunner.Result json = cli.run("--json", "trace", "search", "--ns", "acme");

    assertThat(human.exitCode()).isZero();
    assertThat(human.out()).isEqualTo("no traces" + System.lineSeparator());
    assertThat(json.out().strip()).isEqualTo("{\"items\":[],\"next_cursor\":null}");
  }

  @Test
  void search_badScope_exitsTwoWithTheNamespaceRule() {
    CliRunner.Result r = cli.run("trace", "search", "--ns", "acme.*.x");

    assertThat(r.exitCode()).isEqualTo(2);
    assertOneErrorLine(r, Namespace.RULE);
  }

  @Test
  void search_badInstant_exitsTwoNamingTheOption() {
    CliRunner.Result r = cli.run("trace", "search", "--from", "yesterday");

    assertThat(r.exitCode()).isEqualTo(2);
    assertOneErrorLine(r, "--from", "ISO-8601", "yesterday");
  }

  @Test
  void search_limitOutOfRange_exitsTwoNamingLimit() {
    CliRunner.Result r = cli.run("trace", "search", "--limit", "0");

    assertThat(r.exitCode()).isEqualTo(2);
    assertOneErrorLine(r, "limit");
  }

  @Test
  void trace_withoutSubcommand_exitsTwo() {
    CliRunner.Result r = cli.run("trace");

    assertThat(r.exitCode()).isEqualTo(2);
    assertOneErrorLine(r, "subcommand");
  }

  private static List<String> uids(JsonNode items) {
    List<String> uids = new ArrayList<>();
    items.forEach(t -> uids.add(t.get("uid").asText()));
    return uids;
  }

  private long lastSeq() {
    try (Loci loci = Loci.open(data)) {
      return loci.lastSeq();
    }
  }

  private long count(String ns) {
    try (Loci loci = Loci.open(data)) {
      return loci.traces().count(NamespaceScope.of(ns));
    }
  }
}
