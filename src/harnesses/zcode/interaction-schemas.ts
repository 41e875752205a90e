import { bool, object, str } from "./tool-schemas.js";

/**
 * The schemas of ZCode's agent, question, plan-mode and session tools, held like the others in
 * tool-schemas.ts: the original's names, order, types, bounds and enums, our descriptions.
 */

export const agentSchema = object(
  {
    description: str("What the agent is for, in 3-5 words"),
    prompt: str("The whole task the agent should carry out"),
    subagent_type: str("Which kind of specialized agent runs the task"),
    model: {
      type: "string",
      enum: ["sonnet", "opus", "haiku"],
      description:
        "A model for this agent only. It beats the model the agent definition names; without either, the agent keeps its parent's model.",
    },
    run_in_background: bool("When true, the agent runs in the background and you hear when it is done."),
  },
  ["description", "prompt"],
);

const option = {
  type: "object",
  properties: {
    label: str("The short text (1-5 words) the user picks; it should say plainly what the choice is."),
    description: str("What picking this option means or leads to: its trade-offs or consequences."),
    preview: str(
      "Content shown while this option has focus (a mockup, a code sample, a side-by-side), to help compare options; the tool description says how to format it.",
    ),
  },
  required: ["label", "description"],
  additionalProperties: false,
};

export const askUserQuestionSchema = object(
  {
    questions: {
      type: "array",
      items: {
        type: "object",
        properties: {
          question: str(
            'The full question, clear and specific, ending with a question mark, e.g. "Which test runner should the project use?" With multiSelect, word it so several answers fit, e.g. "Which checks should run before a commit?"',
          ),
          header: str(
            'A very short tag shown as a chip (12 characters at most), e.g. "Runner", "Scope", "Approach".',
          ),
          options: {
            type: "array",
            items: option,
            minItems: 2,
            maxItems: 4,
            description:
              "Two to four distinct choices that exclude each other unless multiSelect is set. Add no 'Other' choice: the user always gets one.",
          },
          multiSelect: {
            type: "boolean",
            default: false,
            description:
              "Set to true to let the user pick more than one option, when the choices can go together.",
          },
        },
        required: ["question", "header", "options", "multiSelect"],
        additionalProperties: false,
      },
      minItems: 1,
      maxItems: 4,
      description: "The questions for the user, one to four of them",
    },
    answers: {
      type: "object",
      additionalProperties: { type: "string" },
      description: "The user's answers, filled in by the permission step",
      propertyNames: { type: "string" },
    },
    annotations: {
      type: "object",
      additionalProperties: {
        type: "object",
        properties: {
          preview: str("The preview of the option the user picked, when the question had previews."),
          notes: str("Notes the user typed alongside the choice."),
        },
        additionalProperties: false,
      },
      description:
        "What the user added per question (notes, the preview picked), keyed by the question text.",
      propertyNames: { type: "string" },
    },
    metadata: {
      type: "object",
      properties: {
        source: str(
          'Where the question comes from (e.g. "remember" for the /remember command), for analytics.',
        ),
      },
      additionalProperties: false,
      description: "Tracking data for analytics; the user does not see it.",
    },
  },
  ["questions"],
);

export const enterPlanModeSchema = object({}, []);

export const exitPlanModeSchema = object(
  {
    plan: {
      type: "string",
      minLength: 1,
      maxLength: 20000,
      description: "The implementation plan the user is asked to approve.",
    },
    allowedPrompts: {
      type: "array",
      items: {
        type: "object",
        properties: {
          tool: { type: "string", enum: ["Bash"], description: "The tool the permission covers" },
          prompt: str('A few words for the kind of action, e.g. "run the tests" or "install dependencies"'),
        },
        required: ["tool", "prompt"],
        additionalProperties: false,
      },
      description:
        "Permissions the plan needs, asked for up front as kinds of action rather than single commands.",
    },
  },
  ["plan"],
  { additionalProperties: {} },
);

export const sendMessageSchema = object(
  {
    to: {
      type: "string",
      minLength: 1,
      maxLength: 200,
      description: "The id of the local agent, e.g. agent_<uuid>.",
    },
    summary: {
      type: "string",
      minLength: 1,
      maxLength: 200,
      description: "A one-line summary of the message, for logs and the delivery status you see.",
    },
    message: {
      type: "string",
      minLength: 1,
      maxLength: 20000,
      description: "What the local agent should be told.",
    },
  },
  ["to", "summary", "message"],
);

export const readSessionContextSchema = object(
  {
    sessionId: {
      type: "string",
      pattern: "^sess_[A-Za-z0-9._-]+$",
      description: "The id of the saved ZCode session to read from.",
    },
    query: {
      type: "string",
      minLength: 1,
      maxLength: 4000,
      description: "What you need from that session, described in a focused sentence or two.",
    },
    strategy: {
      type: "string",
      enum: ["relevant", "handoff"],
      default: "relevant",
      description: "relevant for a focused lookup; handoff for a bounded summary to carry the work on.",
    },
    maxTokens: {
      type: "integer",
      exclusiveMinimum: 0,
      maximum: 12000,
      description: "Roughly how many tokens to hand back at most.",
    },
  },
  ["sessionId", "query"],
);
