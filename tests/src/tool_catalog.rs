//! A large catalog of realistic tools, as an agent with a dozen SaaS integrations sees them:
//! twenty services (mail, calendar, code hosting, chat, billing, …), each with the entities it
//! manages and the operations on them, every tool with a description written for the model and
//! parameters with their own descriptions. The tool-search tests and benches search it.
//!
//! [`catalog`] gives the tools once (about 530, names like `calendar_create_event`);
//! [`scaled_catalog`] repeats it under numbered service names (`calendar7_create_event`) for
//! searches over ten thousand tools.

use dsh_tools::{FnTool, json, schema::Schema};

/// One entity a service manages: its name (singular, `snake_case`), what it is, and the fields a
/// create or update takes (name, description).
struct Entity {
    name: &'static str,
    plural: &'static str,
    about: &'static str,
    fields: &'static [(&'static str, &'static str)],
}

/// One service: its tool-name prefix, what it is, its entities, and operations of its own
/// (name, description).
struct Service {
    prefix: &'static str,
    product: &'static str,
    entities: &'static [Entity],
    special: &'static [(&'static str, &'static str)],
}

const SERVICES: &[Service] = &[
    Service {
        prefix: "mail",
        product: "the user's email account",
        entities: &[
            Entity {
                name: "message",
                plural: "messages",
                about: "an email message with sender, recipients, subject and body",
                fields: &[
                    ("to", "Recipient email addresses"),
                    ("subject", "Subject line"),
                    ("body", "Message text"),
                ],
            },
            Entity {
                name: "draft",
                plural: "drafts",
                about: "an unsent email draft",
                fields: &[
                    ("to", "Recipient email addresses"),
                    ("subject", "Subject line"),
                    ("body", "Draft text"),
                ],
            },
            Entity {
                name: "label",
                plural: "labels",
                about: "a label that tags and groups emails",
                fields: &[("name", "Label name"), ("color", "Label color")],
            },
            Entity {
                name: "thread",
                plural: "threads",
                about: "an email conversation thread of replies",
                fields: &[("subject", "Thread subject")],
            },
            Entity {
                name: "filter",
                plural: "filters",
                about: "a rule that sorts incoming mail automatically",
                fields: &[
                    ("from", "Sender address to match"),
                    ("action", "What to do with matching mail"),
                ],
            },
        ],
        special: &[
            (
                "send_email",
                "Send an email to one or more recipients with a subject and body, optionally with attachments.",
            ),
            (
                "reply_to_email",
                "Reply to an email thread, keeping the conversation and quoting the original message.",
            ),
            (
                "forward_email",
                "Forward an existing email to other recipients with an optional note.",
            ),
            (
                "mark_as_read",
                "Mark emails as read or unread in the inbox.",
            ),
        ],
    },
    Service {
        prefix: "calendar",
        product: "the user's calendar",
        entities: &[
            Entity {
                name: "event",
                plural: "events",
                about: "a calendar event or meeting with a title, start and end time, location and attendees",
                fields: &[
                    ("title", "Event title"),
                    ("start", "Start time, ISO 8601"),
                    ("end", "End time, ISO 8601"),
                    ("attendees", "Email addresses of the attendees"),
                ],
            },
            Entity {
                name: "calendar",
                plural: "calendars",
                about: "a calendar that holds events, such as work or personal",
                fields: &[("name", "Calendar name"), ("timezone", "Time zone")],
            },
            Entity {
                name: "reminder",
                plural: "reminders",
                about: "a reminder notification before an event",
                fields: &[
                    ("minutes_before", "How long before the event"),
                    ("method", "Email or popup"),
                ],
            },
        ],
        special: &[
            (
                "find_free_time",
                "Find free time slots when all the given people are available for a meeting.",
            ),
            (
                "respond_to_invitation",
                "Accept, decline or tentatively accept a meeting invitation.",
            ),
        ],
    },
    Service {
        prefix: "github",
        product: "GitHub",
        entities: &[
            Entity {
                name: "repository",
                plural: "repositories",
                about: "a git repository hosting source code",
                fields: &[
                    ("name", "Repository name"),
                    ("private", "Whether only members can see it"),
                ],
            },
            Entity {
                name: "issue",
                plural: "issues",
                about: "a bug report or feature request in a repository's issue tracker",
                fields: &[
                    ("title", "Issue title"),
                    ("body", "Issue description"),
                    ("labels", "Labels to apply"),
                ],
            },
            Entity {
                name: "pull_request",
                plural: "pull requests",
                about: "a pull request proposing code changes from a branch for review and merge",
                fields: &[
                    ("title", "Pull request title"),
                    ("head", "Branch with the changes"),
                    ("base", "Branch to merge into"),
                ],
            },
            Entity {
                name: "branch",
                plural: "branches",
                about: "a git branch of a repository",
                fields: &[
                    ("name", "Branch name"),
                    ("from", "Commit or branch to start from"),
                ],
            },
            Entity {
                name: "workflow_run",
                plural: "workflow runs",
                about: "a GitHub Actions CI workflow run with its jobs and status",
                fields: &[("workflow", "Workflow file"), ("ref", "Branch or tag")],
            },
            Entity {
                name: "release",
                plural: "releases",
                about: "a tagged release with release notes and assets",
                fields: &[("tag", "Git tag"), ("notes", "Release notes")],
            },
        ],
        special: &[
            (
                "merge_pull_request",
                "Merge an approved pull request into its base branch, by merge commit, squash or rebase.",
            ),
            ("request_review", "Ask reviewers to review a pull request."),
            (
                "rerun_workflow",
                "Re-run a failed GitHub Actions continuous integration workflow run.",
            ),
        ],
    },
    Service {
        prefix: "jira",
        product: "Jira project tracking",
        entities: &[
            Entity {
                name: "ticket",
                plural: "tickets",
                about: "a Jira ticket (story, task or bug) with a status, assignee and priority",
                fields: &[
                    ("summary", "One-line summary"),
                    ("assignee", "Who works on it"),
                    ("priority", "Priority"),
                ],
            },
            Entity {
                name: "sprint",
                plural: "sprints",
                about: "a time-boxed sprint that groups tickets",
                fields: &[("name", "Sprint name"), ("goal", "Sprint goal")],
            },
            Entity {
                name: "comment",
                plural: "comments",
                about: "a comment on a Jira ticket",
                fields: &[("text", "Comment text")],
            },
        ],
        special: &[
            (
                "transition_ticket",
                "Move a Jira ticket to another workflow status, such as In Progress or Done.",
            ),
            ("log_work", "Log time spent working on a Jira ticket."),
        ],
    },
    Service {
        prefix: "slack",
        product: "Slack",
        entities: &[
            Entity {
                name: "channel",
                plural: "channels",
                about: "a Slack channel where a team chats",
                fields: &[
                    ("name", "Channel name"),
                    ("private", "Whether it is invite-only"),
                ],
            },
            Entity {
                name: "message",
                plural: "messages",
                about: "a chat message posted in a Slack channel or thread",
                fields: &[("channel", "Channel to post in"), ("text", "Message text")],
            },
            Entity {
                name: "user_group",
                plural: "user groups",
                about: "a Slack user group that can be mentioned at once",
                fields: &[("handle", "Mention handle"), ("members", "Member ids")],
            },
            Entity {
                name: "reminder",
                plural: "reminders",
                about: "a Slack reminder that pings someone at a time",
                fields: &[("text", "What to remind about"), ("time", "When")],
            },
        ],
        special: &[
            (
                "post_message",
                "Post a chat message to a Slack channel or direct message.",
            ),
            ("add_reaction", "React to a Slack message with an emoji."),
            ("set_status", "Set the user's Slack status text and emoji."),
        ],
    },
    Service {
        prefix: "drive",
        product: "cloud file storage",
        entities: &[
            Entity {
                name: "document",
                plural: "documents",
                about: "a stored document or spreadsheet file",
                fields: &[("name", "File name"), ("folder", "Folder to put it in")],
            },
            Entity {
                name: "folder",
                plural: "folders",
                about: "a folder that organizes stored files",
                fields: &[("name", "Folder name"), ("parent", "Parent folder")],
            },
            Entity {
                name: "shared_drive",
                plural: "shared drives",
                about: "a team drive whose files belong to the team",
                fields: &[("name", "Drive name")],
            },
            Entity {
                name: "permission",
                plural: "permissions",
                about: "a sharing permission that lets someone view or edit a file",
                fields: &[
                    ("email", "Who to share with"),
                    ("role", "Viewer, commenter or editor"),
                ],
            },
        ],
        special: &[
            ("upload_file", "Upload a local file to cloud storage."),
            (
                "download_file",
                "Download a file from cloud storage to the local disk.",
            ),
            (
                "search_files",
                "Search stored files by name and full-text content.",
            ),
        ],
    },
    Service {
        prefix: "postgres",
        product: "the PostgreSQL database",
        entities: &[
            Entity {
                name: "table",
                plural: "tables",
                about: "a database table with columns and rows",
                fields: &[("name", "Table name"), ("columns", "Column definitions")],
            },
            Entity {
                name: "index",
                plural: "indexes",
                about: "a database index that speeds up queries on columns",
                fields: &[("table", "Indexed table"), ("columns", "Indexed columns")],
            },
            Entity {
                name: "role",
                plural: "roles",
                about: "a database role (user) with login and privileges",
                fields: &[("name", "Role name"), ("privileges", "Granted privileges")],
            },
            Entity {
                name: "backup",
                plural: "backups",
                about: "a snapshot backup of the whole database",
                fields: &[("label", "Backup label")],
            },
        ],
        special: &[
            (
                "run_sql_query",
                "Run a read-only SQL SELECT query against the database and return the rows.",
            ),
            (
                "explain_query",
                "Show the query plan PostgreSQL would use for a SQL statement.",
            ),
            (
                "restore_backup",
                "Restore the database from an earlier backup snapshot.",
            ),
        ],
    },
    Service {
        prefix: "k8s",
        product: "the Kubernetes cluster",
        entities: &[
            Entity {
                name: "pod",
                plural: "pods",
                about: "a Kubernetes pod running containers",
                fields: &[("namespace", "Namespace"), ("image", "Container image")],
            },
            Entity {
                name: "deployment",
                plural: "deployments",
                about: "a Kubernetes deployment that keeps replicas of a container running",
                fields: &[
                    ("namespace", "Namespace"),
                    ("replicas", "How many replicas"),
                ],
            },
            Entity {
                name: "service",
                plural: "services",
                about: "a Kubernetes service exposing pods on a stable network address and port",
                fields: &[("port", "Port"), ("selector", "Pod selector")],
            },
            Entity {
                name: "config_map",
                plural: "config maps",
                about: "a Kubernetes config map of configuration values",
                fields: &[("data", "Key-value pairs")],
            },
            Entity {
                name: "secret",
                plural: "secrets",
                about: "a Kubernetes secret holding passwords or tokens",
                fields: &[("data", "Secret values")],
            },
            Entity {
                name: "namespace",
                plural: "namespaces",
                about: "a Kubernetes namespace isolating resources",
                fields: &[("name", "Namespace name")],
            },
        ],
        special: &[
            (
                "scale_deployment",
                "Scale a Kubernetes deployment up or down to a number of replicas.",
            ),
            (
                "get_pod_logs",
                "Fetch the container logs of a Kubernetes pod.",
            ),
            (
                "rollout_restart",
                "Restart all pods of a deployment with a rolling update.",
            ),
        ],
    },
    Service {
        prefix: "billing",
        product: "Stripe payments",
        entities: &[
            Entity {
                name: "customer",
                plural: "customers",
                about: "a paying customer with contact and payment details",
                fields: &[("email", "Customer email"), ("name", "Customer name")],
            },
            Entity {
                name: "invoice",
                plural: "invoices",
                about: "an invoice billing a customer for amounts due",
                fields: &[
                    ("customer", "Customer id"),
                    ("amount", "Amount due in cents"),
                    ("due_date", "When payment is due"),
                ],
            },
            Entity {
                name: "coupon",
                plural: "coupons",
                about: "a billing coupon that takes a percentage or amount off invoices",
                fields: &[("percent_off", "Percent off")],
            },
            Entity {
                name: "payout",
                plural: "payouts",
                about: "a payout transferring the balance to the bank account",
                fields: &[("amount", "Amount in cents")],
            },
            Entity {
                name: "subscription",
                plural: "subscriptions",
                about: "a recurring subscription plan a customer pays for",
                fields: &[("customer", "Customer id"), ("plan", "Price plan")],
            },
        ],
        special: &[
            (
                "refund_payment",
                "Refund a card payment to the customer, in full or in part.",
            ),
            (
                "charge_card",
                "Charge a customer's saved credit card a one-time amount.",
            ),
        ],
    },
    Service {
        prefix: "crm",
        product: "Salesforce CRM",
        entities: &[
            Entity {
                name: "lead",
                plural: "leads",
                about: "a sales lead: a prospective customer not yet qualified",
                fields: &[("company", "Company"), ("contact", "Contact person")],
            },
            Entity {
                name: "opportunity",
                plural: "opportunities",
                about: "a sales opportunity (a deal) with a stage and expected revenue",
                fields: &[("stage", "Sales stage"), ("amount", "Expected revenue")],
            },
            Entity {
                name: "account",
                plural: "accounts",
                about: "a customer company account in the CRM",
                fields: &[("name", "Company name"), ("industry", "Industry")],
            },
            Entity {
                name: "task",
                plural: "tasks",
                about: "a sales follow-up task such as a call or email to a contact",
                fields: &[("subject", "What to do"), ("due", "Due date")],
            },
            Entity {
                name: "contact",
                plural: "contacts",
                about: "a person at a customer account, with phone and email",
                fields: &[("name", "Full name"), ("phone", "Phone number")],
            },
        ],
        special: &[(
            "convert_lead",
            "Convert a qualified lead into an account, a contact and an opportunity.",
        )],
    },
    Service {
        prefix: "weather",
        product: "the weather service",
        entities: &[],
        special: &[
            (
                "get_forecast",
                "Get the weather forecast for a city for the next days: temperature, rain and wind.",
            ),
            (
                "get_current_conditions",
                "Get the current weather conditions at a location right now.",
            ),
            (
                "get_air_quality",
                "Get the air quality index and pollution levels for a city.",
            ),
            (
                "list_weather_alerts",
                "List active severe weather warnings such as storms or floods for a region.",
            ),
        ],
    },
    Service {
        prefix: "maps",
        product: "the maps service",
        entities: &[],
        special: &[
            (
                "get_directions",
                "Get driving, walking or transit directions and a route between two places.",
            ),
            (
                "geocode_address",
                "Turn a street address into latitude and longitude coordinates.",
            ),
            (
                "search_places",
                "Search for nearby places such as restaurants or gas stations around a location.",
            ),
            (
                "get_travel_time",
                "Estimate the travel time and distance between two locations with current traffic.",
            ),
        ],
    },
    Service {
        prefix: "notion",
        product: "Notion",
        entities: &[
            Entity {
                name: "page",
                plural: "pages",
                about: "a Notion page of notes and content blocks",
                fields: &[("title", "Page title"), ("parent", "Parent page")],
            },
            Entity {
                name: "comment",
                plural: "comments",
                about: "a discussion comment on a Notion page",
                fields: &[("text", "Comment text")],
            },
            Entity {
                name: "database",
                plural: "databases",
                about: "a Notion database of structured entries with properties",
                fields: &[
                    ("title", "Database title"),
                    ("properties", "Property schema"),
                ],
            },
        ],
        special: &[(
            "append_blocks",
            "Append paragraphs, to-dos or headings to a Notion page.",
        )],
    },
    Service {
        prefix: "support",
        product: "the Zendesk help desk",
        entities: &[
            Entity {
                name: "support_ticket",
                plural: "support tickets",
                about: "a customer support request in the help desk queue",
                fields: &[
                    ("subject", "What the customer asks about"),
                    ("requester", "Customer email"),
                ],
            },
            Entity {
                name: "macro",
                plural: "macros",
                about: "a canned response applied to support tickets",
                fields: &[("title", "Macro title"), ("reply", "Reply text")],
            },
        ],
        special: &[
            (
                "escalate_ticket",
                "Escalate a customer support ticket to a senior agent or another team.",
            ),
            (
                "add_internal_note",
                "Add a private internal note to a support ticket that the customer does not see.",
            ),
        ],
    },
    Service {
        prefix: "sms",
        product: "Twilio messaging",
        entities: &[Entity {
            name: "phone_number",
            plural: "phone numbers",
            about: "a phone number rented for calls and texts",
            fields: &[("area_code", "Area code")],
        }],
        special: &[
            (
                "send_text_message",
                "Send an SMS text message to a mobile phone number.",
            ),
            (
                "place_phone_call",
                "Place an outbound phone call that plays a spoken message.",
            ),
            (
                "list_text_messages",
                "List SMS text messages sent and received.",
            ),
        ],
    },
    Service {
        prefix: "s3",
        product: "AWS S3 object storage",
        entities: &[
            Entity {
                name: "bucket",
                plural: "buckets",
                about: "an S3 bucket holding stored objects",
                fields: &[("name", "Bucket name"), ("region", "AWS region")],
            },
            Entity {
                name: "object",
                plural: "objects",
                about: "an object (a file blob) stored in an S3 bucket under a key",
                fields: &[("bucket", "Bucket"), ("key", "Object key")],
            },
        ],
        special: &[(
            "presign_url",
            "Create a temporary presigned URL to download an S3 object without credentials.",
        )],
    },
    Service {
        prefix: "monitoring",
        product: "Datadog monitoring",
        entities: &[
            Entity {
                name: "monitor",
                plural: "monitors",
                about: "an alerting monitor that watches a metric against a threshold",
                fields: &[("query", "Metric query"), ("threshold", "Alert threshold")],
            },
            Entity {
                name: "slo",
                plural: "SLOs",
                about: "a service level objective tracking availability or latency targets",
                fields: &[("target", "Target percentage")],
            },
            Entity {
                name: "dashboard",
                plural: "dashboards",
                about: "a dashboard of graphs of metrics",
                fields: &[("title", "Dashboard title")],
            },
            Entity {
                name: "incident",
                plural: "incidents",
                about: "a production incident or outage being handled",
                fields: &[
                    ("severity", "Severity level"),
                    ("summary", "What is broken"),
                ],
            },
        ],
        special: &[
            (
                "query_metrics",
                "Query time-series metrics such as CPU usage or request latency over a time range.",
            ),
            (
                "mute_monitor",
                "Silence the alerts of a monitor for a while.",
            ),
            (
                "search_logs",
                "Search application log lines by text and time range.",
            ),
        ],
    },
    Service {
        prefix: "shop",
        product: "the Shopify store",
        entities: &[
            Entity {
                name: "product",
                plural: "products",
                about: "a product for sale in the store with price and variants",
                fields: &[("title", "Product title"), ("price", "Price")],
            },
            Entity {
                name: "order",
                plural: "orders",
                about: "a customer order with line items, shipping and payment status",
                fields: &[("customer", "Customer"), ("items", "Line items")],
            },
            Entity {
                name: "customer",
                plural: "customers",
                about: "a store customer with addresses and order history",
                fields: &[("email", "Customer email")],
            },
            Entity {
                name: "discount_code",
                plural: "discount codes",
                about: "a coupon code that discounts orders",
                fields: &[("code", "Coupon code"), ("percent", "Percent off")],
            },
        ],
        special: &[
            (
                "adjust_inventory",
                "Adjust the stock level of a product variant at a warehouse.",
            ),
            (
                "fulfill_order",
                "Mark an order as shipped with a tracking number.",
            ),
        ],
    },
    Service {
        prefix: "hr",
        product: "the HR system",
        entities: &[
            Entity {
                name: "employee",
                plural: "employees",
                about: "an employee record with role, manager and start date",
                fields: &[("name", "Full name"), ("role", "Job title")],
            },
            Entity {
                name: "department",
                plural: "departments",
                about: "a department of the company with its head and members",
                fields: &[("name", "Department name")],
            },
            Entity {
                name: "time_off_request",
                plural: "time off requests",
                about: "a vacation or sick leave request awaiting approval",
                fields: &[
                    ("start", "First day off"),
                    ("end", "Last day off"),
                    ("kind", "Vacation or sick leave"),
                ],
            },
        ],
        special: &[
            (
                "approve_time_off",
                "Approve or reject an employee's vacation request.",
            ),
            (
                "run_payroll",
                "Run payroll to pay employees' salaries for a pay period.",
            ),
        ],
    },
    Service {
        prefix: "travel",
        product: "the travel booking service",
        entities: &[
            Entity {
                name: "flight_booking",
                plural: "flight bookings",
                about: "a booked airline flight reservation with passengers and seats",
                fields: &[
                    ("from", "Departure airport"),
                    ("to", "Arrival airport"),
                    ("date", "Travel date"),
                ],
            },
            Entity {
                name: "hotel_booking",
                plural: "hotel bookings",
                about: "a hotel room reservation for check-in and check-out dates",
                fields: &[
                    ("city", "City"),
                    ("check_in", "Arrival date"),
                    ("check_out", "Departure date"),
                ],
            },
            Entity {
                name: "itinerary",
                plural: "itineraries",
                about: "a trip itinerary grouping flights, hotels and cars",
                fields: &[("name", "Trip name")],
            },
            Entity {
                name: "car_rental",
                plural: "car rentals",
                about: "a rental car reservation picked up at a location",
                fields: &[("pickup", "Pick-up location"), ("days", "Rental days")],
            },
        ],
        special: &[
            (
                "search_flights",
                "Search available airline flights between two airports on a date, with prices.",
            ),
            (
                "check_in_flight",
                "Check in online for a booked flight and get the boarding pass.",
            ),
        ],
    },
];

/// The operations on every entity: verb, and how its description reads.
const OPERATIONS: &[(&str, &str)] = &[
    (
        "list",
        "List the {plural} in {product}, newest first, optionally filtered.",
    ),
    (
        "get",
        "Get the details of one {name} in {product} by its id: {about}.",
    ),
    ("create", "Create a new {name} in {product}: {about}."),
    (
        "update",
        "Change the fields of an existing {name} in {product}.",
    ),
    ("delete", "Delete a {name} from {product} permanently."),
    (
        "search",
        "Search the {plural} of {product} by keywords and fields.",
    ),
    ("export", "Export the {plural} of {product} as a CSV file."),
];

/// One tool of the catalog, as plain data.
#[derive(Clone, Debug)]
pub struct CatalogTool {
    /// The tool name.
    pub name: String,
    /// What it does.
    pub description: String,
    /// Its parameters: name and description.
    pub parameters: Vec<(String, String)>,
}

impl CatalogTool {
    /// The tool, deferred or not, answering every call with its own name.
    pub fn to_tool(&self, deferred: bool) -> FnTool {
        let mut schema = Schema::object();
        for (name, description) in &self.parameters {
            schema = schema.optional(
                name.clone(),
                Schema::string().description(description.clone()),
            );
        }
        let name = self.name.clone();
        FnTool::builder(self.name.clone(), self.description.clone())
            .arguments(schema)
            .options(dsh_tools::call::ToolOptions {
                defer_loading: deferred,
                ..dsh_tools::call::ToolOptions::default()
            })
            .handler(move |_, _| {
                let name = name.clone();
                async move { Ok(json!(name)) }
            })
    }
}

fn fill(template: &str, entity: &Entity, product: &str) -> String {
    template
        .replace("{plural}", entity.plural)
        .replace("{name}", &entity.name.replace('_', " "))
        .replace("{about}", entity.about)
        .replace("{product}", product)
}

/// The catalog once, with service prefixes as written, or numbered with `copy` (`mail3_…`).
fn services(copy: Option<usize>) -> Vec<CatalogTool> {
    let mut tools = Vec::new();
    for service in SERVICES {
        let prefix = match copy {
            None => service.prefix.to_owned(),
            Some(copy) => format!("{}{copy}", service.prefix),
        };
        for entity in service.entities {
            for (verb, template) in OPERATIONS {
                let mut parameters = vec![(
                    "id".to_owned(),
                    format!("The {} id", entity.name.replace('_', " ")),
                )];
                if matches!(*verb, "create" | "update") {
                    parameters.extend(entity.fields.iter().map(|(name, description)| {
                        ((*name).to_owned(), (*description).to_owned())
                    }));
                }
                if matches!(*verb, "list" | "search" | "export") {
                    parameters = vec![
                        (
                            "query".to_owned(),
                            "Only those matching this text".to_owned(),
                        ),
                        ("limit".to_owned(), "How many to return".to_owned()),
                    ];
                }
                tools.push(CatalogTool {
                    name: format!("{prefix}_{verb}_{}", entity.name),
                    description: fill(template, entity, service.product),
                    parameters,
                });
            }
        }
        for (name, description) in service.special {
            tools.push(CatalogTool {
                name: format!("{prefix}_{name}"),
                description: (*description).to_owned(),
                parameters: vec![("id".to_owned(), "What it acts on".to_owned())],
            });
        }
    }
    tools
}

/// Every tool of the catalog once.
pub fn catalog() -> Vec<CatalogTool> {
    services(None)
}

/// At least `count` tools: the catalog, then numbered copies of it.
pub fn scaled_catalog(count: usize) -> Vec<CatalogTool> {
    let mut tools = services(None);
    let mut copy = 2;
    while tools.len() < count {
        tools.extend(services(Some(copy)));
        copy += 1;
    }
    tools.truncate(count);
    tools
}
