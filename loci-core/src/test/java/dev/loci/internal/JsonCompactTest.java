package dev.loci.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loci.InvalidRequestException;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Json.compactValue: whitespace between tokens removed, strings kept byte for byte. */
class JsonCompactTest {
  static LongStream seeds() {
    Random r = new Random(Long.getLong("loci.test.seed", 20261126L));
    return LongStream.generate(() -> r.nextLong() & Long.MAX_VALUE).limit(5);
  }

  @Test
  void compactValue_alreadyCompact_returnsTheSameString() {
    String text = "{\"note\":\"a b\\\" c\\\\\",\"i\":12,\"xs\":[1,2.5e3,true,null]}";
    assertThat(Json.compactValue(text, "content")).isSameAs(text);
  }

  @Test
  void compactValue_whitespaceBetweenTokens_removedAndStringsKept() {
    String text = " {\n\t\"note\" : \"a  b\\\" \\t c\" ,\r\n \"xs\" : [ 1 , \"\\\\\" ] } ";
    assertThat(Json.compactValue(text, "content"))
        .isEqualTo("{\"note\":\"a  b\\\" \\t c\",\"xs\":[1,\"\\\\\"]}");
  }

  @Test
  void compactValue_escapedBackslashBeforeClosingQuote_endsTheString() {
    // "\\" is a string of one backslash: the quote after it closes the string, so the space
    // after that is between tokens
    assertThat(Json.compactValue("[\"\\\\\" , \"x y\"]", "content"))
        .isEqualTo("[\"\\\\\",\"x y\"]");
  }

  @Test
  void compactValue_notOneValue_namesTheField() {
    assertThatThrownBy(() -> Json.compactValue("{\"a\":1} 2", "content"))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("content");
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void compactValue_randomPrettyPrintedTrees_sameTreeAsJacksonAndNoWhitespaceOutsideStrings(
      long seed) throws Exception {
    Random r = new Random(seed);
    for (int i = 0; i < 500; i++) {
      Object value = randomValue(r, 0);
      String compact = Json.MAPPER.writeValueAsString(value);
      String pretty = Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(value);
      assertThat(Json.compactValue(pretty, "content")).isEqualTo(compact);
      assertThat(Json.compactValue(compact, "content")).isSameAs(compact);
    }
  }

  private static Object randomValue(Random r, int depth) {
    int kind = depth > 3 ? r.nextInt(3) : r.nextInt(5);
    switch (kind) {
      case 0:
        return r.nextInt(2000) - 1000;
      case 1:
        return randomString(r);
      case 2:
        return r.nextBoolean();
      case 3:
        java.util.List<Object> list = new java.util.ArrayList<>();
        for (int k = r.nextInt(4); k > 0; k--) {
          list.add(randomValue(r, depth + 1));
        }
        return list;
      default:
        java.util.Map<String, Object> map = new java.util.LinkedHashMap<>();
        for (int k = r.nextInt(4); k > 0; k--) {
          map.put(randomString(r), randomValue(r, depth + 1));
        }
        return map;
    }
  }

  private static String randomString(Random r) {
    String alphabet = " \t\n\r\"\\ab{}[]:,/";
    StringBuilder sb = new StringBuilder();
    for (int k = r.nextInt(8); k > 0; k--) {
      sb.append(alphabet.charAt(r.nextInt(alphabet.length())));
    }
    return sb.toString();
  }

  @Test
  void simpleJson_edgeCases_agreeWithJackson() {
    String[] texts = {
      "0",
      "-0",
      "01",
      "-",
      "1.",
      ".5",
      "1e5",
      "1E+5",
      "1e-5",
      "1e",
      "+1",
      "1.5e3x",
      "123abc",
      "true",
      "truex",
      "nul",
      "null ",
      " false",
      "\"\\u00e9\"",
      "\"\\u12\"",
      "\"\\ud800\"",
      "\"\\x\"",
      "\"a\tb\"",
      "\"\\/\"",
      "[1,]",
      "[,1]",
      "{\"a\":1,}",
      "{\"a\" 1}",
      "{a:1}",
      "{\"a\":1}}",
      "[[[]]]",
      "[1 2]",
      "\"abc\" \"d\"",
      "\u000b1",
      "1\f",
      "NaN",
      "[\"\ud83d\ude00\"]",
      "{\"k\":[true,false,null,-1.25e-7,\"\"]}",
      "[" + "[".repeat(70) + "]".repeat(71),
      "\"",
      "[\"a"
    };
    for (String text : texts) {
      assertThat(outcome(() -> Json.compactValue(text, "content")))
          .as("%s", text)
          .isEqualTo(outcome(() -> Json.compactWithJackson(text, "content")));
    }
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void simpleJson_mutatedValues_acceptExactlyWhatJacksonAcceptsAndCompactTheSame(long seed)
      throws Exception {
    Random r = new Random(seed);
    String alphabet = " \t\n\r\"\\{}[]:,.-+eE0123456789truefalsnu/x\u00e9\ud800\u000b";
    for (int i = 0; i < 3000; i++) {
      StringBuilder text =
          new StringBuilder(
              Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(randomValue(r, 0)));
      for (int k = r.nextInt(3); k > 0 && text.length() > 0; k--) {
        int at = r.nextInt(text.length());
        char c = alphabet.charAt(r.nextInt(alphabet.length()));
        switch (r.nextInt(3)) {
          case 0 -> text.insert(at, c);
          case 1 -> text.deleteCharAt(at);
          default -> text.setCharAt(at, c);
        }
      }
      String t = text.toString();
      assertThat(outcome(() -> Json.compactValue(t, "content")))
          .as("%s", t)
          .isEqualTo(outcome(() -> Json.compactWithJackson(t, "content")));
    }
  }

  /** The compacted text, or the error's message. */
  private static String outcome(java.util.function.Supplier<String> compact) {
    try {
      return "ok " + compact.get();
    } catch (InvalidRequestException e) {
      return "error " + e.getMessage();
    }
  }
}
