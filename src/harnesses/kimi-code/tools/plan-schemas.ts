/**
 * Kimi Code 2.1.0's AskUserQuestion, EnterPlanMode and ExitPlanMode schemas, keys in the
 * capture's order (its zod-to-JSON-Schema output, draft-07), descriptions ours.
 */
const SCHEMA = "http://json-schema.org/draft-07/schema#";

export const askUserQuestionSchema = {
  $schema: SCHEMA,
  type: "object",
  properties: {
    questions: {
      minItems: 1,
      maxItems: 4,
      type: "array",
      items: {
        type: "object",
        properties: {
          question: {
            type: "string",
            minLength: 1,
            description: "The question, ending with a question mark.",
          },
          header: {
            default: "",
            description: "A short tag for the question, 12 characters at most.",
            type: "string",
          },
          options: {
            minItems: 2,
            maxItems: 4,
            type: "array",
            items: {
              type: "object",
              properties: {
                label: {
                  type: "string",
                  minLength: 1,
                  description: "The option as shown, one to five words.",
                },
                description: { default: "", description: "What choosing this option means.", type: "string" },
              },
              required: ["label"],
              additionalProperties: false,
            },
            description: 'Two to four choices; the user can always answer "Other" in their own words.',
          },
          multi_select: {
            default: false,
            description: "Whether more than one option may be chosen.",
            type: "boolean",
          },
        },
        required: ["question", "options"],
        additionalProperties: false,
      },
      description: "One to four questions to put to the user.",
    },
    background: {
      default: false,
      description:
        "Whether to ask without waiting: the call returns at once and the answer arrives later. Leave it false unless you can go on without the answer.",
      type: "boolean",
    },
  },
  required: ["questions"],
  additionalProperties: false,
};

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
    options: {
      description:
        "Where the plan offers alternative approaches, two or three of them for the user to pick one from when approving; leave it out for a plan with one approach.",
      minItems: 1,
      maxItems: 3,
      type: "array",
      items: {
        type: "object",
        properties: {
          label: {
            type: "string",
            minLength: 1,
            maxLength: 80,
            description: "The approach's name as the user sees it.",
          },
          description: { default: "", description: "What the approach involves.", type: "string" },
        },
        required: ["label"],
        additionalProperties: false,
      },
    },
  },
  additionalProperties: false,
};
