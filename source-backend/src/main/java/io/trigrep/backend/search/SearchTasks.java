package io.trigrep.backend.search;

/**
 * How a search's tasks take their work and send what they find: {@link UnorderedTasks} as they
 * find it, {@link InOrderTasks} in doc order. {@link SearchExecution} decides when a task runs;
 * this decides what it does.
 */
interface SearchTasks {
    /** One task: searches the work it takes, then queues its successor, pauses the search or ends it. */
    void run();

    /** Holds the search's lock: work handed back or results held, without which the search may end. */
    boolean holdsWork();

    /** Holds the search's lock: the search ended, and whatever is held is never sent. */
    void ended();
}
