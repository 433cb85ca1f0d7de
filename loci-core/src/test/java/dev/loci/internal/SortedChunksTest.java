package dev.loci.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** Held to {@link TreeSet}, which it replaced for the trace store's listing order. */
class SortedChunksTest {
  /** An element with a sort key and a version: equal keys are the same element. */
  private record Item(int key, int version) {}

  private static final Comparator<Item> BY_KEY = Comparator.comparingInt(Item::key);

  @Test
  void randomInsertsRemovalsAndReplacements_matchATreeSet() {
    for (int round = 0; round < 20; round++) {
      Random random = new Random(round);
      SortedChunks<Item> chunks = new SortedChunks<>(BY_KEY);
      TreeSet<Item> tree = new TreeSet<>(BY_KEY);
      // small key ranges force many replacements and emptied arrays; large ones many splits
      int keys = round % 2 == 0 ? 300 : 20 * SortedChunks.CHUNK;
      for (int op = 0; op < 6_000; op++) {
        Item item = new Item(random.nextInt(keys), op);
        int what = random.nextInt(10);
        if (what < 6) {
          boolean fresh =
              !tree.remove(item); // a TreeSet keeps an equal element: replace it by hand
          tree.add(item);
          assertThat(chunks.add(item)).isEqualTo(fresh);
        } else {
          assertThat(chunks.remove(item)).isEqualTo(tree.remove(item));
        }
        assertThat(chunks.size()).isEqualTo(tree.size());
        if (op % 500 == 0 || op == 5_999) {
          assertThat(new ArrayList<>(chunks)).containsExactlyElementsOf(tree);
          if (!tree.isEmpty()) {
            assertThat(chunks.last()).isEqualTo(tree.last());
            Item probe = new Item(random.nextInt(keys), -1);
            assertThat(list(chunks.tailFrom(probe)))
                .containsExactlyElementsOf(tree.tailSet(probe, false));
          }
        }
      }
    }
  }

  @Test
  void appendsInOrder_fillWholeArrays_andIterateFromAnyElement() {
    SortedChunks<Item> chunks = new SortedChunks<>(BY_KEY);
    int n = 5 * SortedChunks.CHUNK + 7;
    for (int k = 0; k < n; k++) {
      assertThat(chunks.add(new Item(2 * k, 0))).isTrue();
    }
    assertThat(chunks).hasSize(n);
    assertThat(chunks.last()).isEqualTo(new Item(2 * (n - 1), 0));
    assertThat(list(chunks.tailFrom(new Item(2 * SortedChunks.CHUNK - 2, 0))))
        .first()
        .isEqualTo(new Item(2 * SortedChunks.CHUNK, 0));
    assertThat(list(chunks.tailFrom(new Item(2 * SortedChunks.CHUNK - 1, 0))))
        .as("from a key between elements")
        .first()
        .isEqualTo(new Item(2 * SortedChunks.CHUNK, 0));
    assertThat(list(chunks.tailFrom(new Item(2 * n, 0)))).isEmpty();
    assertThat(list(chunks.tailFrom(new Item(-1, 0)))).hasSize(n);
    assertThat(chunks.add(new Item(4, 9))).as("a replacement").isFalse();
    assertThat(chunks).hasSize(n).contains(new Item(4, 9)).doesNotContain(new Item(4, 0));
  }

  @Test
  void emptied_acceptsElementsAgain() {
    SortedChunks<Item> chunks = new SortedChunks<>(BY_KEY);
    chunks.add(new Item(1, 0));
    assertThat(chunks.remove(new Item(1, 5))).isTrue();
    assertThat(chunks).isEmpty();
    assertThat(chunks.remove(new Item(1, 5))).isFalse();
    assertThat(list(chunks.tailFrom(new Item(0, 0)))).isEmpty();
    chunks.add(new Item(3, 0));
    chunks.add(new Item(2, 0));
    assertThat(chunks).containsExactly(new Item(2, 0), new Item(3, 0));
  }

  private static List<Item> list(Iterable<Item> items) {
    List<Item> out = new ArrayList<>();
    items.forEach(out::add);
    return out;
  }
}
