package dev.loci.mcp.internal;

import dev.loci.server.Role;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One tool: its name and what a model reads about it (title, description, argument schema), what it
 * does to stored memory, the role a caller needs, and the code that runs it.
 *
 * @param name the tool name, such as {@code recall}
 * @param title a short human title
 * @param description what the tool does and when to use it, for a model
 * @param inputSchema the JSON Schema of the arguments
 * @param outputSchema the JSON Schema of the structured result, if the tool declares one
 * @param effect what a call does to stored memory
 * @param role the least role that may call it
 * @param handler the code that serves a call
 */
public record ToolSpec(
    String name,
    String title,
    String description,
    Map<String, Object> inputSchema,
    Optional<Map<String, Object>> outputSchema,
    Effect effect,
    Role role,
    Handler handler) {

  /** What a call does to stored memory, for the tool annotations clients show. */
  public enum Effect {
    /** Reads only. */
    READ,
    /** Adds or changes records; nothing is lost (every version is kept). */
    WRITE,
    /** Retires, removes or invalidates records (their history is kept, but they leave recall). */
    DESTRUCTIVE
  }

  /** Serves one call whose role the runner has already checked. */
  @FunctionalInterface
  public interface Handler {
    /**
     * Serves the call. Throw Loci's exceptions ({@link dev.loci.InvalidRequestException} naming the
     * argument, {@link dev.loci.NotFoundException}, ...) or {@link ToolError} for failures: the
     * runner turns them into tool errors.
     */
    Reply handle(Call call);
  }

  /** Checks presence. */
  public ToolSpec {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(title, "title");
    Objects.requireNonNull(description, "description");
    inputSchema = Map.copyOf(inputSchema);
    outputSchema = outputSchema.map(Map::copyOf);
    Objects.requireNonNull(effect, "effect");
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(handler, "handler");
  }

  /** The tool as {@code tools/list} shows it, with its annotations. */
  public McpSchema.Tool tool() {
    McpSchema.Tool.Builder b =
        McpSchema.Tool.builder()
            .name(name)
            .title(title)
            .description(description)
            .inputSchema(inputSchema)
            .annotations(
                McpSchema.ToolAnnotations.builder()
                    .title(title)
                    .readOnlyHint(effect == Effect.READ)
                    .destructiveHint(effect == Effect.DESTRUCTIVE)
                    .idempotentHint(effect == Effect.READ)
                    .openWorldHint(false)
                    .build());
    outputSchema.ifPresent(b::outputSchema);
    return b.build();
  }
}
