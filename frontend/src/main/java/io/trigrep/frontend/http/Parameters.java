package io.trigrep.frontend.http;

import java.util.List;
import java.util.Map;

/**
 * A request's query parameters, read with their checks: a boolean is {@code true} or {@code
 * false}, a number an integer within its bounds, a choice one of its values. Anything else is a
 * {@link Bad} whose message names the parameter, what it must be and what it was, for the view to
 * answer 400 with (JSON or a page); nothing is silently read as its default.
 */
final class Parameters {
    /** A parameter that is not what it must be. */
    static final class Bad extends Exception {
        private static final long serialVersionUID = 1L;

        Bad(String message) {
            super(message, null, false, false);
        }
    }

    private final Map<String, List<String>> params;

    Parameters(Map<String, List<String>> params) {
        this.params = params;
    }

    /** The first value of {@code name}, or {@code fallback} when it is absent. */
    String text(String name, String fallback) {
        return Responses.first(params, name, fallback);
    }

    boolean bool(String name, boolean fallback) throws Bad {
        String value = text(name, null);
        if (value == null) {
            return fallback;
        }
        return switch (value) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new Bad(name + " must be true or false, got '" + value + "'");
        };
    }

    /** {@code name} as an integer in [{@code min}, {@code max}], or {@code fallback} when it is absent. */
    int integer(String name, int fallback, int min, int max) throws Bad {
        String value = text(name, null);
        if (value == null) {
            return fallback;
        }
        long parsed;
        try {
            parsed = Long.parseLong(value);
        } catch (NumberFormatException e) {
            parsed = Long.MIN_VALUE;
        }
        if (parsed < min || parsed > max) {
            throw new Bad(name + " must be an integer in [" + min + ", " + max + "], got '" + value + "'");
        }
        return (int) parsed;
    }

    /** {@code name} as one of {@code choices}, or {@code fallback} when it is absent. */
    String choice(String name, String fallback, List<String> choices) throws Bad {
        String value = text(name, null);
        if (value == null) {
            return fallback;
        }
        if (!choices.contains(value)) {
            throw new Bad(name + " must be " + String.join(" or ", choices) + ", got '" + value + "'");
        }
        return value;
    }
}
