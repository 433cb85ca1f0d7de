package dev.loci.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TraceSubjectIdsTest {
  @Test
  void subjectIds_topLevelStringsOnly_skippingEverythingElse() {
    assertThat(
            TraceSubjects.subjectIds(
                "{\"a\":{\"subject_ids\":[\"nested\"]},\"subject_ids\":[\"p1\",7,{\"x\":1},\"p2\"],"
                    + "\"b\":[\"subject_ids\"]}"))
        .containsExactly("p1", "p2");
    assertThat(TraceSubjects.subjectIds("[\"subject_ids\"]")).isEmpty();
    assertThat(TraceSubjects.subjectIds("\"subject_ids\"")).isEmpty();
    assertThat(TraceSubjects.subjectIds("{\"subject_ids\":\"p1\"}")).isEmpty();
    assertThat(TraceSubjects.subjectIds("{\"note\":1}")).isEmpty();
  }

  @Test
  void subjectIds_escapesWhitespaceAndDuplicates_readAsAParserWould() {
    assertThat(
            TraceSubjects.subjectIds(
                " {\n \"n\\\"ote\" : \"a \\\"subject_ids\\\" b\" , \"subject_ids\" :\t[ \"a\\u00e9\\n\","
                    + " \"x\\\\y\\/z\" , null, true, -1.5e3, [\"q\"] ] }"))
        .containsExactly("a\u00e9\n", "x\\y/z");
    // the last of duplicate members wins, also when it is no array
    assertThat(TraceSubjects.subjectIds("{\"subject_ids\":[\"old\"],\"subject_ids\":[\"new\"]}"))
        .containsExactly("new");
    assertThat(TraceSubjects.subjectIds("{\"subject_ids\":[\"old\"],\"subject_ids\":\"s\"}"))
        .isEmpty();
    // a member whose name is spelled with an escape is the same member
    assertThat(TraceSubjects.subjectIds("{\"subject\\u005fids\":[\"p\"],\"subject_ids\":[]}"))
        .isEmpty();
    assertThat(TraceSubjects.subjectIds("{\"subject_ids\":0,\"subject\\u005fids\":[\"p\"]}"))
        .containsExactly("p");
  }

  @Test
  void subjectIds_brokenText_namesNobody() {
    for (String broken :
        List.of(
            "{\"subject_ids\":[\"p1\"",
            "{\"subject_ids\":[\"p1",
            "{\"subject_ids\" [\"p1\"]}",
            "{\"subject_ids\":[\"p\\u00\"]}",
            "{\"subject_ids\":[\"p\\q\"]}",
            "{\"subject_ids\":[\"p\"]x}",
            "{\"subject_ids\":[\"p\"],}x",
            "{\"subject_ids\":[\"p\" \"q\"]}")) {
      assertThat(TraceSubjects.subjectIds(broken)).as(broken).isEmpty();
    }
  }

  /** Random objects, compact and spaced: the scan reads what a tree of the same text holds. */
  @Test
  void subjectIds_randomObjects_matchTheTreeOfTheSameText() throws Exception {
    Random random = new Random(42);
    for (int n = 0; n < 2_000; n++) {
      String text = object(random, 0);
      JsonNode tree = Json.MAPPER.readTree(text);
      List<String> expected = new ArrayList<>();
      if (tree.path("subject_ids").isArray()) {
        tree.path("subject_ids")
            .forEach(
                e -> {
                  if (e.isTextual()) {
                    expected.add(e.asText());
                  }
                });
      }
      assertThat(TraceSubjects.subjectIds(text)).as(text).isEqualTo(expected);
    }
  }

  private static final String[] NAMES = {"subject_ids", "note", "a\\\"b", "subject_ids ", "x"};
  private static final String[] STRINGS = {
    "p1", "\\u00e9t\\u00e9", "a\\\\b", "q\\\"r", "[{", "}]", "subject_ids", ""
  };

  private static String object(Random random, int depth) {
    StringBuilder sb = new StringBuilder(space(random)).append('{');
    int members = random.nextInt(4);
    for (int m = 0; m < members; m++) {
      if (m > 0) {
        sb.append(',');
      }
      sb.append(space(random)).append('"').append(NAMES[random.nextInt(NAMES.length)]).append('"');
      sb.append(space(random)).append(':').append(value(random, depth + 1));
    }
    return sb.append(space(random)).append('}').toString();
  }

  private static String value(Random random, int depth) {
    String sp = space(random);
    return switch (depth > 3 ? random.nextInt(3) : random.nextInt(5)) {
      case 0 -> sp + '"' + STRINGS[random.nextInt(STRINGS.length)] + '"';
      case 1 -> sp + List.of("1", "-2.5e3", "true", "false", "null").get(random.nextInt(5));
      case 2 -> sp + "0";
      case 3 -> object(random, depth);
      default -> {
        StringBuilder sb = new StringBuilder(sp).append('[');
        int elements = random.nextInt(4);
        for (int e = 0; e < elements; e++) {
          sb.append(e > 0 ? "," : "").append(value(random, depth + 1));
        }
        yield sb.append(space(random)).append(']').toString();
      }
    };
  }

  private static String space(Random random) {
    return random.nextInt(4) == 0 ? " \n\t".substring(random.nextInt(3)) : "";
  }
}
