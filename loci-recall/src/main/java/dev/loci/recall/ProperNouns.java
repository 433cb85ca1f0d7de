package dev.loci.recall;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the proper nouns (names of people, places, organisations, products) in English text by a
 * rule set that needs no model and no tuned threshold: English writes a proper noun capitalized
 * wherever it stands, and a common word capitalized only where a sentence starts. So, over a
 * collection of texts, a word is a <em>name word</em> when the capitalized occurrences that do not
 * start a sentence outnumber its lowercase ones (a plain majority: "Paris" is never lowercase,
 * "yesterday" is lowercase wherever a sentence does not start with it); a capitalized word that
 * starts a sentence counts as a name word only by that evidence from elsewhere. A run of adjacent
 * name words in one sentence is one name ("New York", "Taylor Swift"), and names are compared
 * lowercased.
 *
 * <p>Never names: the pronoun "I" and its contractions, the days of the week and the months (they
 * are dates, not things two records can share meaningfully), and single letters. Possessive endings
 * ({@code 's}) are dropped. Build it over the whole collection with {@link #learn}, then ask {@link
 * #find} per text. Immutable and thread-safe.
 */
public final class ProperNouns {
  private static final Pattern WORD = Pattern.compile("[\\p{L}][\\p{L}\\p{N}'\u2019&-]*");

  /** A sentence ends at one of these, and a new one starts at the next word. */
  private static final Pattern BOUNDARY = Pattern.compile("[.!?:;\"\u201c\u201d()\\[\\]|\\n]");

  private static final Set<String> NEVER =
      Set.of(
          "i",
          "i'm",
          "i've",
          "i'll",
          "i'd",
          "monday",
          "tuesday",
          "wednesday",
          "thursday",
          "friday",
          "saturday",
          "sunday",
          "january",
          "february",
          "march",
          "april",
          "may",
          "june",
          "july",
          "august",
          "september",
          "october",
          "november",
          "december");

  private final Set<String> nameWords;

  private ProperNouns(Set<String> nameWords) {
    this.nameWords = Set.copyOf(nameWords);
  }

  /** Learns which words are name words from how {@code texts} capitalize them. */
  public static ProperNouns learn(Iterable<String> texts) {
    Map<String, int[]> counts = new HashMap<>();
    for (String text : texts) {
      for (List<Token> sentence : sentences(text)) {
        for (int i = 0; i < sentence.size(); i++) {
          Token t = sentence.get(i);
          int[] c = counts.computeIfAbsent(t.key(), k -> new int[2]);
          if (!t.capitalized()) {
            c[1]++;
          } else if (i > 0) {
            c[0]++;
          }
        }
      }
    }
    Set<String> names = new LinkedHashSet<>();
    counts.forEach(
        (word, c) -> {
          if (c[0] > c[1] && word.length() > 1 && !NEVER.contains(word)) {
            names.add(word);
          }
        });
    return new ProperNouns(names);
  }

  /** Whether {@code word} (any case) was learned as a name word. */
  public boolean isNameWord(String word) {
    return nameWords.contains(key(word));
  }

  /** The names in {@code text}, lowercased, each once, in order of first appearance. */
  public List<String> find(String text) {
    Objects.requireNonNull(text, "text");
    Set<String> out = new LinkedHashSet<>();
    for (List<Token> sentence : sentences(text)) {
      StringBuilder run = new StringBuilder();
      for (Token t : sentence) {
        if (t.capitalized() && nameWords.contains(t.key())) {
          run.append(run.isEmpty() ? "" : " ").append(t.key());
        } else if (!run.isEmpty()) {
          out.add(run.toString());
          run.setLength(0);
        }
      }
      if (!run.isEmpty()) {
        out.add(run.toString());
      }
    }
    return new ArrayList<>(out);
  }

  private record Token(String key, boolean capitalized) {}

  private static List<List<Token>> sentences(String text) {
    List<List<Token>> out = new ArrayList<>();
    for (String part : BOUNDARY.split(text)) {
      List<Token> sentence = new ArrayList<>();
      Matcher m = WORD.matcher(part);
      while (m.find()) {
        String w = m.group();
        sentence.add(new Token(key(w), Character.isUpperCase(w.codePointAt(0))));
      }
      if (!sentence.isEmpty()) {
        out.add(sentence);
      }
    }
    return out;
  }

  private static String key(String word) {
    String w = word.toLowerCase(Locale.ROOT).replace('\u2019', '\'');
    if (w.endsWith("'s")) {
      w = w.substring(0, w.length() - 2);
    }
    while (w.endsWith("'") || w.endsWith("-")) {
      w = w.substring(0, w.length() - 1);
    }
    return w;
  }
}
