package dev.loci.bench;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loci.Namespace;
import dev.loci.recall.MemoryNode;
import dev.loci.recall.QueryDates;
import dev.loci.recall.RecallItem;
import dev.loci.recall.RecallMemory;
import dev.loci.recall.RecallMode;
import dev.loci.recall.RecallQuery;
import dev.loci.recall.TimeExpressions;
import dev.loci.recall.internal.EntityLinks;
import dev.loci.recall.internal.Retriever;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The raw material for studying fusion and time offline ({@code loci bench locomo --dump-candidates
 * FILE}): one JSON line per conversation (each turn's session day and the conversation's last one,
 * the anchor of its questions) and per question (gold ids, category, Loci's {@code lexical} and
 * {@code embedding} candidate lists of {@value Retriever#POOL} with their raw scores, and the
 * periods {@link QueryDates} reads out of the question). Not thread-safe.
 */
final class CandidateDump implements AutoCloseable {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private final BufferedWriter out;
  private LocalDate anchor = LocalDate.of(2000, 1, 1);

  private CandidateDump(BufferedWriter out) {
    this.out = out;
  }

  /** A dump writing to {@code file} (replaced). */
  static CandidateDump open(Path file) {
    try {
      return new CandidateDump(Files.newBufferedWriter(file, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Records conversation {@code number}'s turns' days; its last day anchors its questions. */
  void conversation(int number, List<MemoryNode> turns) {
    Map<String, String> days = new LinkedHashMap<>();
    for (MemoryNode t : turns) {
      TimeExpressions.readDate(t.attributes().getOrDefault(RecallQuery.TIME, ""))
          .ifPresent(d -> days.put(t.id(), d.toString()));
    }
    anchor = lastDay(turns).orElse(anchor);
    Map<String, Object> line = new LinkedHashMap<>();
    line.put("conversation", number);
    line.put("anchor", anchor.toString());
    line.put("days", days);
    write(line);
  }

  /**
   * The last day {@code turns} are dated ({@link RecallQuery#TIME}): the day a conversation's
   * questions are asked from.
   */
  static java.util.Optional<LocalDate> lastDay(List<MemoryNode> turns) {
    return turns.stream()
        .map(t -> t.attributes().getOrDefault(RecallQuery.TIME, ""))
        .flatMap(t -> TimeExpressions.readDate(t).stream())
        .max(LocalDate::compareTo);
  }

  /** Forgets the last conversation's anchor. */
  void reset() {
    anchor = LocalDate.of(2000, 1, 1);
  }

  /** Records one question's candidates. */
  void question(
      RecallMemory recall, Namespace ns, int conversation, LocomoData.Question q, String split) {
    Map<String, Object> line = new LinkedHashMap<>();
    line.put("conversation", conversation);
    line.put("split", split);
    line.put("id", q.id());
    line.put("category", q.category());
    line.put("question", q.text());
    line.put("evidence", q.evidence());
    line.put("lexical", candidates(recall, ns, q.text(), RecallMode.LEXICAL));
    line.put("embedding", candidates(recall, ns, q.text(), RecallMode.EMBEDDING));
    line.put(
        "periods",
        QueryDates.read(q.text(), anchor).stream()
            .map(r -> List.of(r.phrase(), r.start().toString(), r.end().toString()))
            .toList());
    write(line);
  }

  private static List<List<Object>> candidates(
      RecallMemory recall, Namespace ns, String text, RecallMode mode) {
    return recall
        .recall(ns, RecallQuery.builder(text, mode).k(Retriever.POOL).build())
        .items()
        .stream()
        .filter(i -> !EntityLinks.isEntity(i.node().id()))
        .map(CandidateDump::pair)
        .toList();
  }

  private static List<Object> pair(RecallItem i) {
    return List.of(i.node().id(), i.score());
  }

  private void write(Map<String, Object> line) {
    try {
      out.write(MAPPER.writeValueAsString(line));
      out.newLine();
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write a dump line", e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    try {
      out.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
