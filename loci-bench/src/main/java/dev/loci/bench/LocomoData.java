package dev.loci.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A LoCoMo file read for scoring: per conversation its turns and the questions that can be scored,
 * and everything that could not be used, with the reason.
 *
 * <p>The quirks of {@code locomo10.json} are survived, never fatal: questions with empty evidence
 * are skipped; evidence entries holding several ids ({@code "D8:6; D9:17"}, space-joined lists) are
 * split; ids with leading zeros ({@code D30:05}) are read as numbers; ids that do not parse ({@code
 * D}, {@code D:11:26}) or name no turn are dropped, and a question left with no usable evidence is
 * skipped; session dates without a session are reported; adversarial questions with {@code
 * adversarial_answer} instead of {@code answer} are kept (only the question and evidence matter);
 * image fields are ignored here (the {@code conversation} pack keeps the caption). The file is only
 * read, never copied. Immutable.
 *
 * @param conversations in file order, numbered from 1
 * @param skipped what was not used and why, in file order
 */
record LocomoData(List<Conversation> conversations, List<Skip> skipped) {
  private static final Pattern SESSION = Pattern.compile("session_(\\d+)");
  private static final Pattern SESSION_DATE = Pattern.compile("session_(\\d+)_date_time");
  private static final Pattern DIA_ID = Pattern.compile("D(\\d+):(\\d+)");

  /** Copies the lists. */
  LocomoData {
    conversations = List.copyOf(conversations);
    skipped = List.copyOf(skipped);
  }

  /** The names of the LoCoMo question categories, by number. */
  static final Map<Integer, String> CATEGORIES =
      Map.of(1, "multi-hop", 2, "temporal", 3, "open-domain", 4, "single-hop", 5, "adversarial");

  /**
   * One conversation.
   *
   * @param number its position in the file, from 1
   * @param sampleId its {@code sample_id}, or {@code sample-<number>} when it has none
   * @param turns every turn with a {@code dia_id}, in session order
   * @param questions the questions with usable evidence
   */
  record Conversation(int number, String sampleId, List<Turn> turns, List<Question> questions) {
    Conversation {
      Objects.requireNonNull(sampleId, "sampleId");
      turns = List.copyOf(turns);
      questions = List.copyOf(questions);
    }
  }

  /**
   * One turn as a baseline indexes it.
   *
   * @param diaId its id, as in the file
   * @param session its session number
   * @param speaker who said it
   * @param text what was said, raw
   */
  record Turn(String diaId, int session, String speaker, String text) {
    Turn {
      Objects.requireNonNull(diaId, "diaId");
      Objects.requireNonNull(speaker, "speaker");
      Objects.requireNonNull(text, "text");
    }

    /** The text a raw baseline indexes: speaker and words, nothing else. */
    String raw() {
      return speaker + ": " + text;
    }
  }

  /**
   * One scorable question.
   *
   * @param id {@code <conversation number>-<question number from 1>}
   * @param category 1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop, 5 adversarial
   * @param text the question
   * @param evidence the gold turn ids, each naming a turn of the conversation, without repeats
   */
  record Question(String id, int category, String text, List<String> evidence) {
    Question {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(text, "text");
      evidence = List.copyOf(evidence);
      if (evidence.isEmpty()) {
        throw new IllegalArgumentException("a question needs evidence: " + id);
      }
    }
  }

  /**
   * Something not used.
   *
   * @param kind {@code question}, {@code evidence} or {@code session} for what was not used; {@code
   *     repaired} for evidence entries used after splitting or reading ids as numbers
   * @param where which one, for example {@code conversation 3 question 17}
   * @param reason why
   */
  record Skip(String kind, String where, String reason) {
    Skip {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(where, "where");
      Objects.requireNonNull(reason, "reason");
    }
  }

  /** The session of a turn id: {@code D3} for {@code D3:12}. */
  static String sessionOf(String diaId) {
    int colon = diaId.indexOf(':');
    return colon < 0 ? diaId : diaId.substring(0, colon);
  }

  /** How many skips of {@code kind} there are, by reason. */
  Map<String, Integer> skipCounts(String kind) {
    Map<String, Integer> out = new TreeMap<>();
    skipped.stream()
        .filter(s -> s.kind.equals(kind))
        .forEach(s -> out.merge(s.reason, 1, Integer::sum));
    return out;
  }

  /**
   * Reads a LoCoMo file.
   *
   * @throws IllegalArgumentException if it is not JSON or not an array of samples
   * @throws UncheckedIOException if it cannot be read
   */
  static LocomoData read(Path file) {
    JsonNode root = JsonFile.read(file);
    if (!root.isArray()) {
      throw new IllegalArgumentException(file + ": expected an array of LoCoMo samples");
    }
    List<Conversation> conversations = new ArrayList<>();
    List<Skip> skipped = new ArrayList<>();
    int number = 0;
    for (JsonNode sample : root) {
      number++;
      conversations.add(conversation(number, sample, skipped));
    }
    return new LocomoData(conversations, skipped);
  }

  private static Conversation conversation(int number, JsonNode sample, List<Skip> skipped) {
    String sampleId = sample.path("sample_id").asText("sample-" + number);
    JsonNode conv = sample.path("conversation");
    Map<Integer, JsonNode> sessions = new TreeMap<>();
    Set<Integer> dates = new LinkedHashSet<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = conv.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> f = it.next();
      Matcher s = SESSION.matcher(f.getKey());
      Matcher d = SESSION_DATE.matcher(f.getKey());
      if (s.matches() && f.getValue().isArray()) {
        sessions.put(Integer.parseInt(s.group(1)), f.getValue());
      } else if (d.matches()) {
        dates.add(Integer.parseInt(d.group(1)));
      }
    }
    for (int d : dates) {
      if (!sessions.containsKey(d)) {
        skipped.add(
            new Skip(
                "session",
                "conversation " + number + " session_" + d,
                "session date with no session"));
      }
    }
    Map<String, Turn> turns = new LinkedHashMap<>();
    sessions.forEach(
        (n, session) -> {
          for (JsonNode t : session) {
            String id = t.path("dia_id").asText("").strip();
            if (!id.isEmpty()) {
              turns.putIfAbsent(
                  id, new Turn(id, n, t.path("speaker").asText(""), t.path("text").asText("")));
            }
          }
        });
    Map<String, String> canonical = new LinkedHashMap<>();
    for (String id : turns.keySet()) {
      Matcher m = DIA_ID.matcher(id);
      canonical.put(
          m.matches() ? Integer.parseInt(m.group(1)) + ":" + Integer.parseInt(m.group(2)) : id, id);
    }
    List<Question> questions = new ArrayList<>();
    int q = 0;
    for (JsonNode qa : sample.path("qa")) {
      q++;
      String where = "conversation " + number + " question " + q;
      String text = qa.path("question").asText("").strip();
      int category = qa.path("category").asInt(0);
      if (text.isEmpty()) {
        skipped.add(new Skip("question", where, "no question text"));
        continue;
      }
      if (!CATEGORIES.containsKey(category)) {
        skipped.add(new Skip("question", where, "unknown category"));
        continue;
      }
      if (qa.path("evidence").isEmpty()) {
        skipped.add(new Skip("question", where, "empty evidence"));
        continue;
      }
      Set<String> evidence = new LinkedHashSet<>();
      for (JsonNode e : qa.path("evidence")) {
        String[] ids = e.asText("").strip().split("[;,\\s]+");
        if (ids.length > 1) {
          skipped.add(
              new Skip(
                  "repaired", where + " '" + e.asText() + "'", "several ids in one entry, split"));
        }
        for (String id : ids) {
          evidence(id, where, canonical, skipped).ifPresent(evidence::add);
        }
      }
      if (evidence.isEmpty()) {
        skipped.add(new Skip("question", where, "no usable evidence id"));
        continue;
      }
      questions.add(new Question(number + "-" + q, category, text, List.copyOf(evidence)));
    }
    return new Conversation(number, sampleId, List.copyOf(turns.values()), questions);
  }

  private static java.util.Optional<String> evidence(
      String id, String where, Map<String, String> canonical, List<Skip> skipped) {
    if (id.isEmpty()) {
      return java.util.Optional.empty();
    }
    Matcher m = DIA_ID.matcher(id);
    if (!m.matches()) {
      skipped.add(new Skip("evidence", where + " '" + id + "'", "malformed evidence id"));
      return java.util.Optional.empty();
    }
    String turn = canonical.get(Integer.parseInt(m.group(1)) + ":" + Integer.parseInt(m.group(2)));
    if (turn == null) {
      skipped.add(new Skip("evidence", where + " '" + id + "'", "no such turn"));
      return java.util.Optional.empty();
    }
    if (!turn.equals(id)) {
      skipped.add(new Skip("repaired", where + " '" + id + "'", "read as " + turn));
    }
    return java.util.Optional.of(turn);
  }
}
