package dev.loci;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loci.internal.UuidV7;
import java.io.BufferedReader;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The trace store's operations, one test per rule of ADR-004's operations table and test list. */
class TracesTest {
  private static final LegalCapability LEGAL = new LegalCapability("test");
  private static final Namespace NS = Namespace.of("acme.alice");
  private static final Instant T0 = Instant.parse("2026-11-22T10:00:00.123456Z");

  @TempDir Path dir;
  private final TestClock clock = new TestClock(T0);
  private Loci loci;
  private Traces traces;

  @BeforeEach
  void open() {
    loci = Loci.builder().dataDir(dir).clock(clock).open();
    traces = loci.traces();
  }

  @AfterEach
  void close() {
    loci.close();
  }

  private void reopen() {
    loci.close();
    loci = Loci.builder().dataDir(dir).clock(clock).open();
    traces = loci.traces();
  }

  @Test
  void history_recordsTheLegalReadWithItsHolderDurablyThroughASnapshot() {
    Trace first = traces.add(NS, "{\"fact\":\"prefers tea\"}", List.of("preference"));
    Trace second = traces.revise(NS, first.uid(), "{\"fact\":\"coffee\"}", List.of("preference"));
    clock.advance(java.time.Duration.ofSeconds(3));

    traces.history(NS, second.uid(), new LegalCapability("dpo@acme"));
    loci.snapshot(); // the record survives a snapshot and its restore, not only replay
    reopen();

    assertThat(loci.legalReads().list(NamespaceScope.exactly(NS)))
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.holder()).isEqualTo("dpo@acme");
              assertThat(r.action()).isEqualTo("trace.history");
              assertThat(r.records()).containsExactly(second.uid(), first.uid());
              assertThat(r.at()).isEqualTo(T0.plusSeconds(3));
              assertThat(r.namespace()).isEqualTo(NS);
            });
    assertThat(loci.legalReads().list(NamespaceScope.exactly(Namespace.of("other")))).isEmpty();
  }

  @Test
  void history_missingTrace_recordsNothing() {
    assertThatThrownBy(() -> traces.history(NS, "missing", LEGAL))
        .isInstanceOf(NotFoundException.class);
    assertThat(loci.legalReads().list(NamespaceScope.exactly(NS))).isEmpty();
  }

  @Test
  void add_validContent_assignsUuidV7AndTimestampsAndReplayCountOne() {
    Trace t = traces.add(NS, "{\"fact\": \"prefers tea\"}", List.of("preference"));

    assertThat(UuidV7.isV7(t.uid())).as("uid %s is a UUID v7", t.uid()).isTrue();
    assertThat(t.createdAt()).isEqualTo(T0);
    assertThat(t.updatedAt()).isEqualTo(T0);
    assertThat(t.replayCount()).isEqualTo(1);
    assertThat(t.retired()).isFalse();
    assertThat(t.predecessorUid()).isEmpty();
    assertThat(t.content()).isEqualTo("{\"fact\":\"prefers tea\"}");
    assertThat(t.tags()).containsExactly("preference");
    assertThat(traces.get(NS, t.uid())).isEqualTo(t);
  }

  @Test
  void add_manyInOneMillisecond_uidsStrictlyIncrease() {
    List<String> uids = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      uids.add(traces.add(NS, "{}", List.of()).uid());
    }
    assertThat(uids).isSorted().doesNotHaveDuplicates();
  }

  @Test
  void add_invalidJson_rejectedNamingContentAndNothingWritten() {
    long before = loci.lastSeq();

    assertThatThrownBy(() -> traces.add(NS, "{\"v\":different}", List.of()))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageStartingWith("content:")
        .extracting(e -> ((InvalidRequestException) e).field())
        .isEqualTo("content");
    assertThatThrownBy(() -> traces.add(NS, "{} {}", List.of()))
        .isInstanceOf(InvalidRequestException.class);
    assertThatThrownBy(() -> traces.add(NS, "  ", List.of()))
        .isInstanceOf(InvalidRequestException.class);
    assertThat(loci.lastSeq()).isEqualTo(before);
    assertThat(traces.count(NamespaceScope.exactly(NS))).isZero();
  }

  @Test
  void add_anyJsonValue_keptExactlyApartFromWhitespace() {
    assertThat(traces.add(NS, "\"just a string\"", List.of()).content())
        .isEqualTo("\"just a string\"");
    assertThat(traces.add(NS, "[1.10, 2e3, 12345678901234567890123]", List.of()).content())
        .isEqualTo("[1.10,2e3,12345678901234567890123]");
    assertThat(traces.add(NS, "{\"s\": \"a  b\\\" c\"}", List.of()).content())
        .isEqualTo("{\"s\":\"a  b\\\" c\"}");
  }

  @Test
  void add_badTag_rejectedNamingTags() {
    assertThatThrownBy(() -> traces.add(NS, "{}", List.of("ok", " ")))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageStartingWith("tags:");
  }

  @Test
  void add_tagCount_atTheLimitStored_onePastRefusedNamingTagsAndNothingWritten() {
    List<String> max = new java.util.ArrayList<>();
    for (int i = 0; i < dev.loci.internal.TraceLayer.MAX_TAGS; i++) {
      max.add("t" + i);
    }
    assertThat(traces.add(NS, "1", max).tags()).hasSize(dev.loci.internal.TraceLayer.MAX_TAGS);
    long before = loci.lastSeq();
    List<String> tooMany = new java.util.ArrayList<>(max);
    tooMany.add("one-more");
    assertThatThrownBy(() -> traces.add(NS, "1", tooMany))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("at most 256 tags")
        .extracting(e -> ((InvalidRequestException) e).field())
        .isEqualTo("tags");
    assertThat(loci.lastSeq()).isEqualTo(before);
  }

  @Test
  void add_duplicateTags_keptOnce() {
    assertThat(traces.add(NS, "{}", List.of("a", "b", "a")).tags()).containsExactly("a", "b");
  }

  @Test
  void namespace_invalid_rejectedWithTheRule() {
    assertThatThrownBy(() -> Namespace.of("Acme"))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("[a-z0-9][a-z0-9_-]{0,62}")
        .hasMessageContaining("'Acme'");
    assertThatThrownBy(() -> Namespace.of("a.b.c.d.e.f.g.h.i")).hasMessageContaining("9 labels");
    assertThatThrownBy(() -> Namespace.of("a..b")).hasMessageContaining("label ''");
    assertThat(Namespace.of("acme.support.agent-7").value()).isEqualTo("acme.support.agent-7");
  }

  @Test
  void update_existing_replacesContentKeepsUidBumpsUpdatedAt() {
    Trace t = traces.add(NS, "{\"v\":1}", List.of("x"));
    clock.advance(Duration.ofSeconds(5));

    Trace u = traces.update(NS, t.uid(), "{\"v\":2}");

    assertThat(u.uid()).isEqualTo(t.uid());
    assertThat(u.content()).isEqualTo("{\"v\":2}");
    assertThat(u.createdAt()).isEqualTo(T0);
    assertThat(u.updatedAt()).isEqualTo(T0.plusSeconds(5));
    assertThat(u.tags()).containsExactly("x");
    assertThat(traces.history(NS, t.uid(), LEGAL)).containsExactly(u);
  }

  @Test
  void update_missingUid_notFoundNamingUidAndNothingWritten() {
    long before = loci.lastSeq();
    assertThatThrownBy(() -> traces.update(NS, "no-such-uid", "{}"))
        .isInstanceOf(NotFoundException.class)
        .hasMessageContaining("no-such-uid")
        .extracting(e -> ((NotFoundException) e).field())
        .isEqualTo("uid");
    assertThat(loci.lastSeq()).isEqualTo(before);
  }

  @Test
  void update_invalidJson_rejectedAndContentUnchanged() {
    Trace t = traces.add(NS, "{\"v\":1}", List.of());
    assertThatThrownBy(() -> traces.update(NS, t.uid(), "{v:2}"))
        .isInstanceOf(InvalidRequestException.class);
    assertThat(traces.get(NS, t.uid())).isEqualTo(t);
  }

  @Test
  void revise_existing_newUidLinkedToPredecessorViaHistory() {
    Trace first = traces.add(NS, "{\"belief\":\"tea\"}", List.of("pref"));
    clock.advance(Duration.ofSeconds(1));

    Trace second = traces.revise(NS, first.uid(), "{\"belief\":\"coffee\"}", List.of("pref"));

    assertThat(second.uid()).isNotEqualTo(first.uid());
    assertThat(second.predecessorUid()).contains(first.uid());
    assertThat(second.replayCount()).isEqualTo(1);
    assertThat(traces.get(NS, first.uid())).isEqualTo(first);
    assertThat(traces.history(NS, second.uid(), LEGAL)).containsExactly(second, first);
  }

  @Test
  void revise_predecessorMissing_notFoundNamingPredecessorAndNothingWritten() {
    long before = loci.lastSeq();
    assertThatThrownBy(() -> traces.revise(NS, "ghost", "{}", List.of()))
        .isInstanceOf(NotFoundException.class)
        .extracting(e -> ((NotFoundException) e).field())
        .isEqualTo("predecessor_uid");
    assertThat(loci.lastSeq()).isEqualTo(before);
  }

  @Test
  void revise_chainOfThree_historyWalksBackward() {
    Trace a = traces.add(NS, "{\"v\":1}", List.of());
    Trace b = traces.revise(NS, a.uid(), "{\"v\":2}", List.of());
    Trace c = traces.revise(NS, b.uid(), "{\"v\":3}", List.of());

    assertThat(traces.history(NS, c.uid(), LEGAL)).containsExactly(c, b, a);
    assertThat(traces.history(NS, b.uid(), LEGAL)).containsExactly(b, a);
    assertThat(traces.history(NS, a.uid(), LEGAL)).containsExactly(a);
  }

  @Test
  void revise_retiredPredecessor_allowed() {
    Trace a = traces.add(NS, "{\"v\":1}", List.of());
    traces.retire(NS, a.uid());

    Trace b = traces.revise(NS, a.uid(), "{\"v\":2}", List.of());

    assertThat(b.retired()).isFalse();
    assertThat(traces.history(NS, b.uid(), LEGAL))
        .extracting(Trace::uid)
        .containsExactly(b.uid(), a.uid());
  }

  @Test
  void retire_excludedFromSearchUnlessIncludeRetired() {
    Trace keep = traces.add(NS, "{\"v\":1}", List.of("t"));
    Trace gone = traces.add(NS, "{\"v\":2}", List.of("t"));

    Trace retired = traces.retire(NS, gone.uid());

    assertThat(retired.retired()).isTrue();
    assertThat(traces.search(TraceQuery.in(NS).tag("t").build()).items()).containsExactly(keep);
    assertThat(traces.search(TraceQuery.in(NS).tag("t").includeRetired(true).build()).items())
        .containsExactly(keep, retired);
  }

  @Test
  void retire_stillAccessibleViaGet() {
    Trace t = traces.add(NS, "{}", List.of());
    traces.retire(NS, t.uid());
    assertThat(traces.get(NS, t.uid()).retired()).isTrue();
  }

  @Test
  void retire_stillAccessibleViaHistory() {
    Trace a = traces.add(NS, "{\"v\":1}", List.of());
    Trace b = traces.revise(NS, a.uid(), "{\"v\":2}", List.of());
    traces.retire(NS, a.uid());
    traces.retire(NS, b.uid());

    assertThat(traces.history(NS, b.uid(), LEGAL))
        .extracting(Trace::uid, Trace::retired)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(b.uid(), true),
            org.assertj.core.groups.Tuple.tuple(a.uid(), true));
  }

  @Test
  void retire_twice_writesNothingTheSecondTime() {
    Trace t = traces.add(NS, "{}", List.of());
    traces.retire(NS, t.uid());
    long seq = loci.lastSeq();
    assertThat(traces.retire(NS, t.uid()).retired()).isTrue();
    assertThat(loci.lastSeq()).isEqualTo(seq);
  }

  @Test
  void retire_unknownUid_notFound() {
    assertThatThrownBy(() -> traces.retire(NS, "nope")).isInstanceOf(NotFoundException.class);
  }

  @Test
  void history_unknownUid_errorsCleanly() {
    assertThatThrownBy(() -> traces.history(NS, "missing", LEGAL))
        .isInstanceOf(NotFoundException.class)
        .hasMessageContaining("missing");
  }

  @Test
  void history_cycleInImportedData_detected() {
    String log =
        "{\"op\":\"add\",\"trace\":{\"uid\":\"a\",\"content\":{},\"predecessor_uid\":\"b\"}}\n"
            + "{\"op\":\"add\",\"trace\":{\"uid\":\"b\",\"content\":{},\"predecessor_uid\":\"a\"}}\n";
    traces.importAdr004(NS, new BufferedReader(new StringReader(log)));

    assertThatThrownBy(() -> traces.history(NS, "a", LEGAL))
        .isInstanceOf(CorruptDataException.class)
        .hasMessageContaining("loops back");
  }

  @Test
  void history_predecessorMissing_truncatesChain() {
    String log =
        "{\"op\":\"add\",\"trace\":{\"uid\":\"root\",\"content\":1}}\n"
            + "{\"op\":\"revise\",\"trace\":{\"uid\":\"mid\",\"content\":2,\"predecessor_uid\":\"gone\"}}\n"
            + "{\"op\":\"revise\",\"trace\":{\"uid\":\"top\",\"content\":3,\"predecessor_uid\":\"mid\"}}\n";
    traces.importAdr004(NS, new BufferedReader(new StringReader(log)));

    assertThat(traces.history(NS, "top", LEGAL))
        .extracting(Trace::uid)
        .containsExactly("top", "mid");
  }

  @Test
  void addIdempotent_existingUid_incrementsReplayCountAndKeepsOriginalContent() {
    Trace first = traces.addIdempotent(NS, "job-42", "{\"v\":\"original\"}", List.of("a"));
    assertThat(first.replayCount()).isEqualTo(1);
    assertThat(first.uid()).isEqualTo("job-42");

    Trace again = traces.addIdempotent(NS, "job-42", "{\"v\":\"different\"}", List.of("b"));

    assertThat(again.replayCount()).isEqualTo(2);
    assertThat(again.content()).isEqualTo("{\"v\":\"original\"}");
    assertThat(again.tags()).containsExactly("a");
    assertThat(traces.get(NS, "job-42")).isEqualTo(again);
  }

  @Test
  void addIdempotent_invalidJsonOrUid_rejected() {
    assertThatThrownBy(() -> traces.addIdempotent(NS, "job", "{\"v\":different}", List.of()))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageStartingWith("content:");
    assertThatThrownBy(() -> traces.addIdempotent(NS, "bad uid/with slash", "{}", List.of()))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageStartingWith("uid:");
  }

  @Test
  void namespaces_isolated_sameUidIndependentAndInvisibleAcross() {
    Namespace other = Namespace.of("globex");
    traces.addIdempotent(NS, "shared", "{\"who\":\"acme\"}", List.of());
    traces.addIdempotent(other, "shared", "{\"who\":\"globex\"}", List.of());

    assertThat(traces.get(NS, "shared").content()).contains("acme");
    assertThat(traces.get(other, "shared").content()).contains("globex");
    Trace onlyAcme = traces.add(NS, "{}", List.of());
    assertThat(traces.find(other, onlyAcme.uid())).isEmpty();
    assertThatThrownBy(() -> traces.update(other, onlyAcme.uid(), "{}"))
        .isInstanceOf(NotFoundException.class);
  }

  @Test
  void search_filtersOnTagSubstringTimeAndScope() {
    Namespace child = Namespace.of("acme.alice.session-1");
    Trace a = traces.add(NS, "{\"topic\":\"tea time\"}", List.of("drink", "pref"));
    clock.advance(Duration.ofMinutes(1));
    Trace b = traces.add(child, "{\"topic\":\"coffee\"}", List.of("drink"));
    clock.advance(Duration.ofMinutes(1));
    Trace c = traces.add(NS, "{\"topic\":\"tea party\"}", List.of("event"));

    assertThat(traces.search(TraceQuery.in(NS).tag("drink").build()).items()).containsExactly(a);
    assertThat(
            traces.search(TraceQuery.in(NamespaceScope.of("acme.*")).tag("drink").build()).items())
        .containsExactly(a, b);
    assertThat(
            traces
                .search(
                    TraceQuery.in(NamespaceScope.of("acme.*"))
                        .tags(List.of("drink", "pref"))
                        .build())
                .items())
        .containsExactly(a);
    assertThat(traces.search(TraceQuery.in(NS).contentContains("tea").build()).items())
        .containsExactly(a, c);
    assertThat(
            traces
                .search(
                    TraceQuery.in(NamespaceScope.of("acme.*"))
                        .createdFrom(T0.plusSeconds(60))
                        .createdBefore(T0.plusSeconds(120))
                        .build())
                .items())
        .containsExactly(b);
    assertThat(traces.search(TraceQuery.in(Namespace.of("acme")).build()).items()).isEmpty();
  }

  @Test
  void search_paginates_withOpaqueCursorAndNoOverlap() {
    List<Trace> all = new ArrayList<>();
    for (int i = 0; i < 25; i++) {
      all.add(
          traces.add(i % 2 == 0 ? NS : Namespace.of("acme.bob"), "{\"i\":" + i + "}", List.of()));
    }
    List<Trace> seen = new ArrayList<>();
    Page<Trace> page = traces.search(TraceQuery.in(NamespaceScope.of("acme.*")).limit(10).build());
    seen.addAll(page.items());
    while (page.nextCursor().isPresent()) {
      page =
          traces.search(
              TraceQuery.in(NamespaceScope.of("acme.*"))
                  .limit(10)
                  .cursor(page.nextCursor().get())
                  .build());
      seen.addAll(page.items());
    }
    assertThat(seen).containsExactlyElementsOf(all);
  }

  @Test
  void search_badCursorOrLimit_rejectedNamingField() {
    assertThatThrownBy(() -> traces.search(TraceQuery.in(NS).cursor("not-a-cursor").build()))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageStartingWith("cursor:");
    assertThatThrownBy(() -> TraceQuery.in(NS).limit(0).build())
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageStartingWith("limit:");
  }

  @Test
  void returnedValues_shareNoMutableState() {
    List<String> tags = new ArrayList<>(List.of("a"));
    Trace t = traces.add(NS, "{}", tags);
    tags.add("b");
    assertThat(t.tags()).containsExactly("a");
    assertThatThrownBy(() -> t.tags().add("c")).isInstanceOf(UnsupportedOperationException.class);
    traces.update(NS, t.uid(), "{\"changed\":true}");
    assertThat(t.content()).isEqualTo("{}");
    assertThat(traces.get(NS, t.uid()).tags()).containsExactly("a");
  }

  @Test
  void reopen_roundTrip_restoresEveryField() {
    Trace a = traces.add(NS, "{\"v\":1}", List.of("x", "y"));
    clock.advance(Duration.ofMillis(3));
    Trace b = traces.revise(NS, a.uid(), "{\"v\":2}", List.of("y"));
    traces.update(NS, b.uid(), "{\"v\":3}");
    traces.retire(NS, a.uid());
    traces.addIdempotent(NS, "fixed", "[]", List.of());
    traces.addIdempotent(NS, "fixed", "[]", List.of());
    List<Trace> before = traces.search(TraceQuery.in(NS).includeRetired(true).build()).items();

    reopen();

    assertThat(traces.search(TraceQuery.in(NS).includeRetired(true).build()).items())
        .containsExactlyElementsOf(before);
    loci.snapshot();
    reopen();
    assertThat(traces.search(TraceQuery.in(NS).includeRetired(true).build()).items())
        .containsExactlyElementsOf(before);
  }

  @Test
  void exportThenImport_intoAnotherNamespace_roundTripsEveryField() {
    Trace a = traces.add(NS, "{\"n\": 1.50}", List.of("x"));
    Trace b = traces.revise(NS, a.uid(), "[true,null]", List.of());
    traces.retire(NS, a.uid());
    traces.addIdempotent(NS, "fixed", "\"s\"", List.of("k"));
    traces.addIdempotent(NS, "fixed", "\"s\"", List.of("k"));
    StringWriter out = new StringWriter();
    assertThat(traces.exportAdr004(NS, out)).isEqualTo(3);

    Namespace copy = Namespace.of("copy");
    ImportReport report =
        traces.importAdr004(copy, new BufferedReader(new StringReader(out.toString())));

    assertThat(report.skipped()).isEmpty();
    assertThat(report.applied()).isEqualTo(3);
    List<Trace> original = traces.search(TraceQuery.in(NS).includeRetired(true).build()).items();
    List<Trace> imported = traces.search(TraceQuery.in(copy).includeRetired(true).build()).items();
    assertThat(imported).hasSameSizeAs(original);
    for (int i = 0; i < original.size(); i++) {
      Trace o = original.get(i);
      assertThat(imported.get(i))
          .isEqualTo(
              new Trace(
                  o.uid(),
                  copy,
                  o.content(),
                  o.predecessorUid(),
                  o.createdAt(),
                  o.updatedAt(),
                  o.retired(),
                  o.replayCount(),
                  o.tags()));
    }
    assertThat(traces.history(copy, b.uid(), LEGAL)).hasSize(2);
    StringWriter again = new StringWriter();
    traces.exportAdr004(copy, again);
    assertThat(again.toString()).isEqualTo(out.toString());
  }

  @Test
  void import_badLines_skippedAndReportedWithReasons() {
    String log =
        String.join(
            "\n",
            "{\"op\":\"add\",\"trace\":{\"uid\":\"u1\",\"content\":{\"a\":1},\"created_at_ns\":1764000000123456789,\"tags\":[\"t\"]}}",
            "this is not json",
            "{\"op\":\"update\",\"uid\":\"unknown\",\"content\":{}}",
            "{\"op\":\"explode\",\"uid\":\"u1\"}",
            "",
            "{\"op\":\"add\",\"trace\":{\"uid\":\"u1\",\"content\":{}}}",
            "{\"op\":\"update\",\"uid\":\"u1\",\"content\":{\"a\":2},\"updated_at_ns\":1764000001000000000}",
            "{\"op\":\"replay\",\"uid\":\"u1\"}",
            "{\"op\":\"retire\",\"uid\":\"u1\"}");

    ImportReport r = traces.importAdr004(NS, new BufferedReader(new StringReader(log)));

    assertThat(r.lines()).isEqualTo(8);
    assertThat(r.applied()).isEqualTo(4);
    assertThat(r.skipped()).extracting(ImportReport.Skipped::line).containsExactly(2L, 3L, 4L, 6L);
    assertThat(r.skipped().get(0).reason()).contains("not a valid JSON");
    assertThat(r.skipped().get(1).reason()).contains("does not exist");
    assertThat(r.skipped().get(2).reason()).contains("unknown op 'explode'");
    assertThat(r.skipped().get(3).reason()).contains("already exists");
    Trace u1 = traces.get(NS, "u1");
    assertThat(u1.content()).isEqualTo("{\"a\":2}");
    assertThat(u1.createdAt()).isEqualTo(Instant.ofEpochSecond(1764000000L, 123456789));
    assertThat(u1.updatedAt()).isEqualTo(Instant.ofEpochSecond(1764000001L));
    assertThat(u1.replayCount()).isEqualTo(2);
    assertThat(u1.retired()).isTrue();
    assertThat(u1.tags()).containsExactly("t");
  }

  @Test
  void open_sameDirectoryTwice_refusedWhileLocked() {
    assertThatThrownBy(() -> Loci.open(dir))
        .isInstanceOf(StorageException.class)
        .hasMessageContaining("in use");
  }

  @Test
  void open_missingParentDirectories_created() {
    Path nested = dir.resolve("a/b/c");
    try (Loci other = Loci.open(nested)) {
      other.traces().add(NS, "{}", List.of());
    }
    try (Loci other = Loci.open(nested)) {
      assertThat(other.traces().count(NamespaceScope.exactly(NS))).isEqualTo(1);
    }
  }

  @Test
  void fromJson_readsThePublicFormBack_withTheSameVersion() {
    Trace t =
        loci.traces()
            .add(
                NS,
                "{\"n\": 1.50, \"s\": \"caf\\u00e9 \\\"q\\\"\", \"a\": [1e3, null]}",
                List.of("x"));
    Trace revised = loci.traces().revise(NS, t.uid(), "\"plain\"", List.of());
    for (Trace original : List.of(t, revised, loci.traces().retire(NS, t.uid()))) {
      Trace read = Trace.fromJson(original.toJson());
      assertThat(read).isEqualTo(original);
      assertThat(read.version()).isEqualTo(original.version());
    }
    assertThatThrownBy(() -> Trace.fromJson("{\"uid\":\"x\"}"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("namespace");
    assertThatThrownBy(() -> Trace.fromJson("[1]")).isInstanceOf(IllegalArgumentException.class);
  }
}
