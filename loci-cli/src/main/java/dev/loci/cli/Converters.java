package dev.loci.cli;

import dev.loci.Durability;
import dev.loci.InvalidRequestException;
import dev.loci.Namespace;
import dev.loci.NamespaceScope;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import picocli.CommandLine;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Parses option values into core types with the core's own parsers, so a bad value is a usage error
 * whose message is the core's (which names the rule it breaks).
 */
final class Converters {
  private Converters() {}

  /** Registers the converters on {@code cmd} and every subcommand it has. */
  static void register(CommandLine cmd) {
    cmd.registerConverter(Namespace.class, core(Namespace::of));
    cmd.registerConverter(NamespaceScope.class, core(NamespaceScope::of));
    cmd.registerConverter(Durability.class, core(Durability::parse));
    cmd.registerConverter(Instant.class, Converters::instant);
  }

  private static <T> ITypeConverter<T> core(ITypeConverter<T> parser) {
    return text -> {
      try {
        return parser.convert(text);
      } catch (InvalidRequestException e) {
        throw new TypeConversionException(e.getMessage());
      }
    };
  }

  private static Instant instant(String text) {
    try {
      return Instant.parse(text);
    } catch (DateTimeParseException e) {
      throw new TypeConversionException(
          "expected an ISO-8601 instant such as 2026-01-31T12:00:00Z, found '" + text + "'");
    }
  }
}
