package dev.loci.pathway.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;

/** {@link StringSlots} answers as a {@code HashMap} does, through adds, moves and removals. */
class StringSlotsTest {
  @RepeatedTest(50)
  void get_afterRandomPutsMovesAndRemoves_agreesWithAHashMap(RepetitionInfo info) {
    long seed = 0x5107_5L * info.getCurrentRepetition();
    SplittableRandom r = new SplittableRandom(seed);
    // keys held as VecIndex holds its uids: a dense array, the last moved into a removed slot
    String[] keys = new String[4096];
    int size = 0;
    StringSlots slots = new StringSlots();
    Map<String, Integer> expected = new HashMap<>();
    for (int op = 0; op < 3000; op++) {
      // few distinct keys and colliding hash codes ("Aa" and "BB") so probes run long
      String key = (r.nextBoolean() ? "Aa" : "BB") + r.nextInt(300);
      if (r.nextInt(3) > 0) {
        if (!expected.containsKey(key)) {
          keys[size] = key;
          slots.put(key, size, keys);
          expected.put(key, size++);
        }
      } else if (expected.containsKey(key)) {
        int slot = expected.remove(key);
        slots.remove(key, keys);
        int last = --size;
        if (slot != last) {
          keys[slot] = keys[last];
          slots.move(keys[slot], slot, keys);
          expected.put(keys[slot], slot);
        }
        keys[last] = null;
      }
      for (int i = 0; i < 300; i += 37) {
        String probe = "Aa" + i;
        assertThat(slots.get(probe, keys))
            .as("seed %d, op %d, %s", seed, op, probe)
            .isEqualTo(expected.getOrDefault(probe, -1));
      }
    }
    for (Map.Entry<String, Integer> e : expected.entrySet()) {
      assertThat(slots.get(e.getKey(), keys)).as("seed %d", seed).isEqualTo(e.getValue());
    }
  }
}
