/**
 * Claude Code 2.1.44's EnterPlanMode, ExitPlanMode and AskUserQuestion schemas, keys in the
 * capture's order (zod v4's JSON Schema output), descriptions ours. 2.1.44's ExitPlanMode takes
 * no plan: the plan is the plan file's text (older releases sent it as `plan`, which the open
 * `additionalProperties` still lets through).
 */
const SCHEMA = "https://json-schema.org/draft/2020-12/schema";

export const enterPlanModeSchema = {
  $schema: SCHEMA,
  type: "object",
  properties: {},
  additionalProperties: false,
};

export const exitPlanModeSchema = {
  $schema: SCHEMA,
  type: "object",
  properties: {
    allowedPrompts: {
      description:
        "Kinds of command the plan will need, asked for up front so they need no approval one by one",
      type: "array",
      items: {
        type: "object",
        properties: {
          tool: { description: "The tool the permission is for", type: "string", enum: ["Bash"] },
          prompt: {
            description:
              'What the commands do, in a few words, such as "run the tests" or "install dependencies"',
            type: "string",
          },
        },
        required: ["tool", "prompt"],
        additionalProperties: false,
      },
    },
    pushToRemote: { description: "Whether to send the plan to a remote session", type: "boolean" },
    remoteSessionId: { description: "The remote session's id, once pushed", type: "string" },
    remoteSessionUrl: { description: "The remote session's address, once pushed", type: "string" },
    remoteSessionTitle: { description: "The remote session's title, once pushed", type: "string" },
  },
  additionalProperties: {},
};

export const askUserQuestionSchema = {
  $schema: SCHEMA,
  type: "object",
  properties: {
    questions: {
      description: "The questions to ask, one to four of them",
      minItems: 1,
      maxItems: 4,
      type: "array",
      items: {
        type: "object",
        properties: {
          question: {
            description:
              'The whole question, clear and specific, ending in a question mark, e.g. "Which database should the service use?"; with multiSelect, word it so that several answers fit',
            type: "string",
          },
          header: {
            description:
              'A very short tag shown as a chip above the question (12 characters at most), e.g. "Database"',
            type: "string",
          },
          options: {
            description:
              'Two to four distinct choices, each a real alternative; leave out a catch-all "Other", which the user always gets',
            minItems: 2,
            maxItems: 4,
            type: "array",
            items: {
              type: "object",
              properties: {
                label: { description: "The choice as the user sees it, one to five words", type: "string" },
                description: {
                  description: "What picking this choice means, or what it would lead to",
                  type: "string",
                },
              },
              required: ["label", "description"],
              additionalProperties: false,
            },
          },
          multiSelect: {
            description:
              "True when the user may pick more than one choice because they do not exclude each other",
            default: false,
            type: "boolean",
          },
        },
        required: ["question", "header", "options", "multiSelect"],
        additionalProperties: false,
      },
    },
    answers: {
      description: "The user's answers, filled in by the permission layer",
      type: "object",
      propertyNames: { type: "string" },
      additionalProperties: { type: "string" },
    },
    metadata: {
      description: "Bookkeeping for tracking and analytics; never shown to the user",
      type: "object",
      properties: {
        source: {
          description:
            'Where the question came from, for analytics, such as "remember"; leave it out unless you know it',
          type: "string",
        },
      },
      additionalProperties: false,
    },
  },
  required: ["questions"],
  additionalProperties: false,
};
