package dev.loci.govern;

import dev.loci.InvalidRequestException;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.Function;
import java.util.stream.Collectors;

/** Parses the lower-case wire labels of the layer's enums, naming the field and the choices. */
final class Labels {
  private Labels() {}

  static String label(Enum<?> e) {
    return e.name().toLowerCase(Locale.ROOT);
  }

  static <E extends Enum<E>> E parse(E[] values, String text, String field) {
    Function<E, String> label = Labels::label;
    if (text != null) {
      String wanted = text.strip().toLowerCase(Locale.ROOT);
      for (E v : values) {
        if (label.apply(v).equals(wanted)) {
          return v;
        }
      }
    }
    throw new InvalidRequestException(
        field,
        "expected one of "
            + Arrays.stream(values).map(label).collect(Collectors.joining(", "))
            + ", found '"
            + text
            + "'");
  }
}
