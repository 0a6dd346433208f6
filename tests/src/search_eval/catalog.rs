//! The evaluation catalogue: tool lists modelled on public MCP servers, one block per server.
//!
//! Each server's block starts `# <prefix>`; each tool is one line, `name(params) Description.`,
//! with the terse names and descriptions such servers publish. Tools are registered as an MCP
//! import names them, `<prefix>__<name>`, so the same short name (`list`, `search`, `create_issue`)
//! occurs on several servers, as it does for an agent connected to many.

use dsh_tools::{FnTool, json, schema::Schema};

/// The servers' tool lists.
const SERVERS: &str = r"
# filesystem
read_text_file(path, head, tail) Read the complete contents of a file from the file system as text. Only works within allowed directories.
read_media_file(path) Read an image or audio file and return its base64 data and MIME type.
read_multiple_files(paths) Read the contents of several files at once; failed reads do not stop the operation.
write_file(path, content) Create a new file or completely overwrite an existing file with new content.
edit_file(path, edits, dry_run) Make line-based edits to a text file, replacing exact text sequences, and return a git-style diff.
create_directory(path) Create a new directory or ensure it exists, creating parent directories as needed.
list_directory(path) Get a detailed listing of all files and directories in a specified path, marked [FILE] or [DIR].
list_directory_with_sizes(path, sort_by) List files and directories in a path with their sizes.
directory_tree(path, exclude_patterns) Get a recursive tree view of files and directories as a JSON structure.
move_file(source, destination) Move or rename files and directories.
search_files(path, pattern, exclude_patterns) Recursively search for files and directories matching a glob pattern.
get_file_info(path) Retrieve detailed metadata about a file or directory: size, creation time, modified time, permissions.
list_allowed_directories() Returns the list of directories this server is allowed to access.

# git
git_status(repo_path) Shows the working tree status.
git_diff_unstaged(repo_path, context_lines) Shows changes in the working directory that are not yet staged.
git_diff_staged(repo_path, context_lines) Shows changes that are staged for commit.
git_diff(repo_path, target) Shows differences between branches or commits.
git_commit(repo_path, message) Records changes to the repository.
git_add(repo_path, files) Adds file contents to the staging area.
git_reset(repo_path) Unstages all staged changes.
git_log(repo_path, max_count, start_timestamp, end_timestamp) Shows the commit logs.
git_create_branch(repo_path, branch_name, base_branch) Creates a new branch from an optional base branch.
git_checkout(repo_path, branch_name) Switches branches.
git_show(repo_path, revision) Shows the contents of a commit.
git_init(repo_path) Initialize a new Git repository.
git_branch(repo_path, branch_type, contains) List Git branches.
git_stash(repo_path, message) Stash the changes in a dirty working directory away.
git_blame(repo_path, file) Show what revision and author last modified each line of a file.

# github
create_or_update_file(owner, repo, path, content, message, branch, sha) Create or update a single file in a GitHub repository.
search_repositories(query, page, per_page) Search for GitHub repositories.
create_repository(name, description, private, auto_init) Create a new GitHub repository in your account.
get_file_contents(owner, repo, path, branch) Get the contents of a file or directory from a GitHub repository.
push_files(owner, repo, branch, files, message) Push multiple files to a GitHub repository in a single commit.
create_issue(owner, repo, title, body, assignees, labels, milestone) Create a new issue in a GitHub repository.
create_pull_request(owner, repo, title, body, head, base, draft) Create a new pull request in a GitHub repository.
fork_repository(owner, repo, organization) Fork a GitHub repository to your account or a specified organization.
create_branch(owner, repo, branch, from_branch) Create a new branch in a GitHub repository.
list_commits(owner, repo, sha, page) Get a list of commits of a branch in a GitHub repository.
list_issues(owner, repo, state, labels, sort, since) List issues in a GitHub repository with filtering options.
update_issue(owner, repo, issue_number, title, body, state, labels) Update an existing issue in a GitHub repository.
add_issue_comment(owner, repo, issue_number, body) Add a comment to an existing issue.
search_code(q, sort, order) Search for code across GitHub repositories.
search_issues(q, sort, order) Search for issues and pull requests across GitHub repositories.
search_users(q, sort, order) Search for users on GitHub.
get_issue(owner, repo, issue_number) Get details of a specific issue in a GitHub repository.
get_pull_request(owner, repo, pull_number) Get details of a specific pull request.
list_pull_requests(owner, repo, state, head, base) List and filter repository pull requests.
create_pull_request_review(owner, repo, pull_number, body, event, comments) Create a review on a pull request.
merge_pull_request(owner, repo, pull_number, commit_title, merge_method) Merge a pull request.
get_pull_request_files(owner, repo, pull_number) Get the list of files changed in a pull request.
get_pull_request_status(owner, repo, pull_number) Get the combined status of all status checks for a pull request.
update_pull_request_branch(owner, repo, pull_number) Update a pull request branch with the latest changes from the base branch.
get_pull_request_comments(owner, repo, pull_number) Get the review comments on a pull request.
list_workflow_runs(owner, repo, workflow_id, status) List the runs of GitHub Actions workflows.
rerun_workflow_run(owner, repo, run_id) Re-run a GitHub Actions workflow run.
get_job_logs(owner, repo, job_id) Download the logs of a workflow job.
list_releases(owner, repo) List the releases of a repository.
create_release(owner, repo, tag_name, name, body) Create a release from a tag.
list_notifications(filter, since) List notifications for the authenticated user.
star_repository(owner, repo) Star a repository.
list_dependabot_alerts(owner, repo, severity) List Dependabot security alerts of a repository.

# gitlab
create_merge_request(project_id, title, source_branch, target_branch, description) Create a new merge request in a GitLab project.
list_merge_requests(project_id, state) List merge requests of a project.
get_merge_request_diffs(project_id, merge_request_iid) Get the changes of a merge request.
create_issue(project_id, title, description, labels) Create a new issue in a GitLab project.
list_issues(project_id, state, labels) List issues in a GitLab project.
list_pipelines(project_id, ref, status) List CI/CD pipelines of a project.
retry_pipeline(project_id, pipeline_id) Retry the failed jobs of a pipeline.
cancel_pipeline(project_id, pipeline_id) Cancel a running pipeline.
get_project(project_id) Get details of a GitLab project.
list_project_members(project_id) List the members of a project.
create_wiki_page(project_id, title, content) Create a wiki page.

# slack
list_channels(limit, cursor) List public channels in the workspace with pagination.
post_message(channel_id, text) Post a new message to a Slack channel.
reply_to_thread(channel_id, thread_ts, text) Reply to a specific message thread in Slack.
add_reaction(channel_id, timestamp, reaction) Add a reaction emoji to a message.
get_channel_history(channel_id, limit) Get recent messages from a channel.
get_thread_replies(channel_id, thread_ts) Get all replies in a message thread.
get_users(limit, cursor) Get a list of all users in the workspace with their basic profile information.
get_user_profile(user_id) Get detailed profile information for a specific user.
search_messages(query, sort) Search messages across the workspace.
set_channel_topic(channel_id, topic) Set the topic of a channel.
create_channel(name, is_private) Create a channel.
invite_to_channel(channel_id, users) Invite users to a channel.
schedule_message(channel_id, text, post_at) Schedule a message to be sent later.
set_status(status_text, status_emoji, expiration) Set the user's status.

# discord
send_message(channel_id, content) Send a message to a Discord channel.
read_messages(channel_id, limit) Read recent messages from a channel.
add_reaction(channel_id, message_id, emoji) Add an emoji reaction to a message.
create_thread(channel_id, name, message_id) Start a thread from a message.
list_servers() List the servers (guilds) the bot is in.
list_members(server_id) List the members of a server.
kick_member(server_id, user_id, reason) Remove a member from a server.
create_role(server_id, name, color) Create a role in a server.

# postgres
query(sql) Run a read-only SQL query.
list_schemas() List the schemas of the database.
list_objects(schema_name, object_type) List tables, views, sequences or extensions in a schema.
get_object_details(schema_name, object_name) Show columns, constraints and indexes of a database object.
explain_query(sql, analyze) Explain the execution plan of a SQL statement, with estimated or actual costs.
analyze_db_health() Analyze the health of the database: buffer cache hit rate, vacuum, invalid indexes, bloat, replication lag.
get_top_queries(sort_by, limit) Report the slowest or most resource-intensive queries from pg_stat_statements.
analyze_query_indexes(queries) Recommend indexes for a list of SQL queries.
execute_sql(sql) Execute any SQL statement, including writes and DDL.

# sqlite
read_query(query) Execute a SELECT query on the SQLite database.
write_query(query) Execute an INSERT, UPDATE, or DELETE query on the SQLite database.
create_table(query) Create a new table in the SQLite database.
list_tables() List all tables in the SQLite database.
describe_table(table_name) Get the schema information for a specific table.
append_insight(insight) Add a business insight to the memo.

# mongodb
find(database, collection, filter, projection, limit, sort) Run a find query against a MongoDB collection.
aggregate(database, collection, pipeline) Run an aggregation pipeline against a collection.
count(database, collection, query) Count documents in a collection matching a query.
insert_many(database, collection, documents) Insert documents into a collection.
update_many(database, collection, filter, update) Update all documents matching a filter.
delete_many(database, collection, filter) Remove all documents matching a filter.
list_collections(database) List the collections of a database.
list_databases() List all databases of the connection.
create_index(database, collection, keys, name) Create an index on a collection.
collection_schema(database, collection) Describe the schema of a collection from a sample of documents.

# redis
set(key, value, expire_seconds) Set a Redis string value with an optional expiration time.
get(key) Get a Redis string value.
delete(key) Delete one or more Redis keys.
list(pattern) List Redis keys matching a pattern.
expire(name, expire_seconds) Set an expiration time on a Redis key.
hset(name, key, value) Set a field in a hash stored at key.
hgetall(name) Get all fields and values from a Redis hash.
lpush(name, value) Push a value onto the head of a Redis list.
lrange(name, start, stop) Get a range of elements from a Redis list.
publish(channel, message) Publish a message to a Redis channel.
dbsize() Get the number of keys stored in the Redis database.
info(section) Get Redis server information and statistics.

# elasticsearch
list_indices(index_pattern) List all available Elasticsearch indices.
get_mappings(index) Get the field mappings of an Elasticsearch index.
search(index, query_body) Perform an Elasticsearch search with the provided query DSL.
get_shards(index) Get shard information for all or specific indices.
cluster_health() Get the health status of the Elasticsearch cluster.

# memory
create_entities(entities) Create multiple new entities in the knowledge graph.
create_relations(relations) Create multiple new relations between entities in the knowledge graph. Relations should be in active voice.
add_observations(observations) Add new observations to existing entities in the knowledge graph.
delete_entities(entity_names) Delete multiple entities and their associated relations from the knowledge graph.
delete_observations(deletions) Delete specific observations from entities in the knowledge graph.
delete_relations(relations) Delete multiple relations from the knowledge graph.
read_graph() Read the entire knowledge graph.
search_nodes(query) Search for nodes in the knowledge graph based on a query.
open_nodes(names) Open specific nodes in the knowledge graph by their names.

# playwright
browser_navigate(url) Navigate to a URL.
browser_navigate_back() Go back to the previous page.
browser_snapshot() Capture an accessibility snapshot of the current page; better than a screenshot.
browser_take_screenshot(filename, full_page, element) Take a screenshot of the current page. You cannot perform actions based on the screenshot.
browser_click(element, ref, double_click, button) Perform a click on a web page.
browser_type(element, ref, text, submit) Type text into an editable element.
browser_fill_form(fields) Fill multiple form fields.
browser_select_option(element, ref, values) Select an option in a dropdown.
browser_hover(element, ref) Hover over an element on the page.
browser_drag(start_element, end_element) Perform drag and drop between two elements.
browser_press_key(key) Press a key on the keyboard.
browser_evaluate(function, element) Evaluate a JavaScript expression on the page or an element.
browser_file_upload(paths) Upload one or multiple files.
browser_handle_dialog(accept, prompt_text) Handle a dialog.
browser_wait_for(text, text_gone, time) Wait for text to appear or disappear or a specified time to pass.
browser_tabs(action, index) List, create, close, or select a browser tab.
browser_console_messages() Returns all console messages.
browser_network_requests() Returns all network requests since loading the page.
browser_resize(width, height) Resize the browser window.
browser_close() Close the page.
browser_pdf_save(filename) Save the page as PDF.

# brave
brave_web_search(query, count, offset) Performs a web search using the Brave Search API, ideal for general queries, news, articles, and online content.
brave_local_search(query, count) Searches for local businesses and places using Brave's Local Search API.
brave_image_search(query, count) Search for images on the web.
brave_news_search(query, freshness) Search recent news articles.

# fetch
fetch(url, max_length, start_index, raw) Fetches a URL from the internet and optionally extracts its contents as markdown.

# exa
web_search_exa(query, num_results) Search the web and return the content of the best pages.
company_research(company_name) Research a company: its website, funding, news and people.
linkedin_search(query) Search LinkedIn for companies and people.
crawling(url) Extract the content of a specific URL.

# google_maps
maps_geocode(address) Convert an address into geographic coordinates.
maps_reverse_geocode(latitude, longitude) Convert coordinates into an address.
maps_search_places(query, location, radius) Search for places using the Google Places API.
maps_place_details(place_id) Get detailed information about a specific place.
maps_distance_matrix(origins, destinations, mode) Calculate travel distance and time for multiple origins and destinations.
maps_elevation(locations) Get elevation data for locations on the earth.
maps_directions(origin, destination, mode) Get directions between two points.

# time
get_current_time(timezone) Get the current time in a specific timezone.
convert_time(source_timezone, time, target_timezone) Convert time between timezones.

# weather
get_alerts(state) Get weather alerts for a US state.
get_forecast(latitude, longitude) Get the weather forecast for a location.
get_current_conditions(location) Get the current temperature, wind and humidity at a location.
get_air_quality(location) Get the air quality index and pollutant levels.

# sentry
list_issues(organization_slug, project_slug, query) List the issues of a Sentry project.
get_issue_details(issue_id) Retrieve and analyze a Sentry issue: stack trace, tags and latest event.
update_issue(issue_id, status, assigned_to) Change the status or assignee of an issue (resolve, ignore, unresolve).
list_projects(organization_slug) List the projects of an organization.
search_events(organization_slug, query) Search error events and spans with a query.
get_trace_details(trace_id) Get a trace with its spans.
list_releases(organization_slug, project_slug) List the releases of a project.
create_project(organization_slug, team_slug, name, platform) Create a new project.
find_dsns(organization_slug, project_slug) List the client keys (DSNs) of a project.

# datadog
get_monitors(name, tags) Get the monitors and their state.
mute_monitor(monitor_id, end) Mute a monitor.
query_metrics(query, from, to) Query timeseries metrics data.
search_logs(query, from, to) Search and filter logs.
list_dashboards(filter) List dashboards.
list_incidents(state) List incidents.
get_apm_traces(service, from, to) Get APM traces of a service.
create_event(title, text, tags) Post an event to the event stream.

# pagerduty
list_incidents(status, service_ids) List incidents.
get_incident(incident_id) Get an incident with its timeline.
acknowledge_incident(incident_id) Acknowledge an incident.
resolve_incident(incident_id, resolution) Resolve an incident.
create_incident(service_id, title, urgency) Trigger a new incident on a service.
list_oncalls(schedule_ids, since, until) List who is on call for schedules and escalation policies.
list_services() List services.
create_override(schedule_id, user_id, start, end) Create an override on a schedule.

# notion
search(query, filter) Search pages and databases by title.
retrieve_page(page_id) Retrieve a page's properties.
create_page(parent, properties, children) Create a page in a page or a database.
update_page_properties(page_id, properties) Update the properties of a page.
append_block_children(block_id, children) Append content blocks to a page or block.
retrieve_block_children(block_id) Retrieve the content blocks of a page or block.
delete_block(block_id) Archive a block.
query_database(database_id, filter, sorts) Query a database with filters and sorts.
create_database(parent, title, properties) Create a database.
create_comment(page_id, rich_text) Add a comment to a page.
retrieve_comments(block_id) Retrieve the comments of a page or block.
list_all_users() List all users of the workspace.

# confluence
confluence_search(cql, limit) Search Confluence content with CQL.
confluence_get_page(page_id, include_body) Get a Confluence page with its content.
confluence_create_page(space_key, title, content, parent_id) Create a new Confluence page.
confluence_update_page(page_id, title, content, version) Update an existing Confluence page.
confluence_get_page_children(parent_id) Get the child pages of a page.
confluence_add_label(page_id, name) Add a label to a page.
confluence_get_comments(page_id) Get the comments of a page.

# jira
jira_search(jql, fields, limit) Search Jira issues using JQL.
jira_get_issue(issue_key, fields, expand) Get details of a specific Jira issue, with its comments and links.
jira_create_issue(project_key, summary, issue_type, description, assignee) Create a new Jira issue.
jira_update_issue(issue_key, fields) Update an existing Jira issue.
jira_delete_issue(issue_key) Delete an existing Jira issue.
jira_add_comment(issue_key, comment) Add a comment to a Jira issue.
jira_transition_issue(issue_key, transition_id, comment) Transition a Jira issue to a new status.
jira_get_transitions(issue_key) Get the available status transitions of an issue.
jira_add_worklog(issue_key, time_spent, comment, started) Add a worklog entry to a Jira issue.
jira_link_issues(link_type, inward_issue_key, outward_issue_key) Create a link between two issues.
jira_get_sprint_issues(sprint_id) Get the issues of a sprint.
jira_create_sprint(board_id, name, start_date, end_date) Create a sprint on a board.
jira_get_project_versions(project_key) Get the fix versions of a project.
jira_get_user_profile(user) Get the profile of a Jira user.

# linear
create_issue(title, team_id, description, priority, assignee_id) Create a new Linear issue.
update_issue(id, title, state_id, priority, assignee_id) Update an existing Linear issue.
search_issues(query, team_id, status, assignee_id) Search Linear issues with flexible filtering.
get_user_issues(user_id, include_archived) Get the issues assigned to a user.
add_comment(issue_id, body) Add a comment to a Linear issue.
list_teams() List the teams of the organization.
list_projects(team_id) List projects.
create_project(name, team_ids, target_date) Create a project.
list_cycles(team_id) List the cycles of a team.

# asana
asana_create_task(project_id, name, notes, due_on, assignee) Create a task in a project.
asana_update_task(task_id, completed, due_on, assignee) Update a task.
asana_get_task(task_id) Get a task's details.
asana_search_tasks(workspace, text, completed) Search tasks in a workspace.
asana_list_projects(workspace) List the projects of a workspace.
asana_create_subtask(parent_task_id, name) Create a subtask under a task.
asana_add_followers(task_id, followers) Add followers to a task.
asana_get_project_status(project_id) Get the latest status update of a project.

# trello
get_lists(board_id) Retrieve all lists of a board.
get_cards_by_list(list_id) Fetch the cards of a list.
add_card_to_list(list_id, name, description, due_date) Add a new card to a list.
update_card_details(card_id, name, description, due_date) Update a card's details.
move_card(card_id, list_id) Move a card to a different list.
archive_card(card_id) Send a card to the archive.
add_list_to_board(board_id, name) Add a new list to the board.
get_my_cards() Fetch all cards assigned to the current user.
get_recent_activity(board_id, limit) Fetch the recent activity of a board.

# todoist
todoist_create_task(content, description, due_string, priority, labels) Create one or more tasks in Todoist with optional due date, priority and labels.
todoist_get_tasks(project_id, filter, priority) Get a list of tasks from Todoist with various filters.
todoist_update_task(task_name, content, due_string, priority) Update an existing task found by a partial name search.
todoist_delete_task(task_name) Delete a task found by a partial name search.
todoist_complete_task(task_name) Mark a task as complete, found by a partial name search.
todoist_get_projects() List all projects.

# gmail
send_email(to, subject, body, cc, bcc, attachments) Sends a new email.
draft_email(to, subject, body) Create a draft email.
read_email(message_id) Retrieve the content of a specific email by its ID.
search_emails(query, max_results) Search for emails using Gmail search syntax.
modify_email(message_id, add_label_ids, remove_label_ids) Modify email labels (move to different folders).
delete_email(message_id) Permanently delete an email.
list_email_labels() Retrieve all available Gmail labels.
create_label(name) Create a new Gmail label.
batch_modify_emails(message_ids, add_label_ids, remove_label_ids) Modify labels of multiple emails in batches.
download_attachment(message_id, attachment_id, save_path) Download an email attachment to a specified location.
create_filter(criteria, action) Create a new Gmail filter with custom criteria and actions.

# google_calendar
list_calendars() List all available calendars.
list_events(calendar_id, time_min, time_max) List events from one or more calendars.
search_events(calendar_id, query, time_min, time_max) Search for events in a calendar by text query.
create_event(calendar_id, summary, start, end, attendees, location, description) Create a new calendar event.
update_event(calendar_id, event_id, summary, start, end, attendees) Update an existing calendar event.
delete_event(calendar_id, event_id) Delete a calendar event.
get_freebusy(calendars, time_min, time_max) Query free/busy information for calendars.
respond_to_event(calendar_id, event_id, response) Respond to an event invitation: accepted, declined or tentative.
get_current_time(timezone) Get the current date and time in the calendar's timezone.

# google_drive
drive_search(query) Search for files in Google Drive.
drive_read_file(file_id) Read the contents of a file from Google Drive.
drive_create_file(name, mime_type, content, parent_id) Create a new file in Google Drive.
drive_update_file(file_id, content) Update the content of an existing file.
drive_create_folder(name, parent_id) Create a new folder.
drive_share_file(file_id, email, role) Share a file with a user, granting reader, commenter or writer access.
drive_move_file(file_id, folder_id) Move a file to another folder.
drive_trash_file(file_id) Move a file to the trash.
sheets_read_range(spreadsheet_id, range) Read values from a range of a Google Sheets spreadsheet.
sheets_update_cells(spreadsheet_id, range, values) Write values to a range of cells.
sheets_append_rows(spreadsheet_id, range, rows) Append rows to a sheet.
sheets_create_spreadsheet(title, sheets) Create a new spreadsheet.
docs_create_document(title, content) Create a new Google Docs document.
docs_append_text(document_id, text) Append text to a document.

# outlook
list_mail_messages(folder, top, filter) List messages in a mailbox folder.
send_mail(to, subject, body, importance) Send a mail message.
reply_to_mail(message_id, comment) Reply to a mail message.
list_calendar_events(start, end) List the calendar events in a time range.
create_calendar_event(subject, start, end, attendees, is_online_meeting) Create a calendar event, optionally with an online meeting.
find_meeting_times(attendees, duration, time_constraint) Suggest meeting times when attendees and rooms are available.
set_automatic_replies(status, internal_message, external_message, start, end) Configure the mailbox's automatic replies.
list_contacts(folder) List the user's contacts.

# zoom
create_meeting(topic, start_time, duration, agenda) Schedule a Zoom meeting.
list_meetings(type) List the scheduled meetings of the user.
get_meeting(meeting_id) Get the details of a meeting.
delete_meeting(meeting_id) Delete a meeting.
list_recordings(from, to) List the cloud recordings of the user.
get_meeting_transcript(meeting_id) Get the transcript of a recorded meeting.

# stripe
create_customer(name, email) Create a customer in Stripe.
list_customers(email, limit) Fetch a list of customers from Stripe.
create_product(name, description) Create a product in Stripe.
list_products(limit) Fetch a list of products from Stripe.
create_price(product, unit_amount, currency) Create a price in Stripe.
list_prices(product, limit) Fetch a list of prices from Stripe.
create_payment_link(price, quantity) Create a payment link in Stripe.
create_invoice(customer, days_until_due) Create an invoice in Stripe.
create_invoice_item(customer, price, invoice) Create an invoice item in Stripe.
finalize_invoice(invoice) Finalize an invoice in Stripe.
retrieve_balance() Retrieve the balance from Stripe.
create_refund(payment_intent, amount) Refund a payment intent in Stripe.
list_payment_intents(customer, limit) List payment intents in Stripe.
list_subscriptions(customer, price, status) List all subscriptions in Stripe.
cancel_subscription(subscription) Cancel a subscription in Stripe.
update_subscription(subscription, items, proration_behavior) Update an existing subscription in Stripe.
create_coupon(percent_off, amount_off, duration) Create a coupon in Stripe.
list_disputes(charge, payment_intent) Fetch a list of disputes in Stripe.
update_dispute(dispute, evidence, submit) Update a dispute with evidence in Stripe.
search_documentation(question, language) Search and answer Stripe-related questions.

# paypal
create_invoice(recipient_email, items) Create an invoice.
send_invoice(invoice_id) Send an invoice to the payer.
create_order(currency, amount) Create an order.
capture_order(order_id) Capture the payment of an approved order.
create_refund(capture_id, amount) Refund a captured payment.
list_transactions(start_date, end_date) List transactions in a date range.
create_shipment_tracking(transaction_id, tracking_number, carrier) Add tracking information to a transaction.

# shopify
get_products(search_title, limit) Get all products or search products by title.
get_product(product_id) Get a specific product by ID.
create_product(title, description, vendor, variants) Create a new product.
update_inventory(inventory_item_id, location_id, available) Set the stock level of an item at a location.
get_orders(status, limit) Get orders with optional filtering.
get_order(order_id) Get a specific order by ID.
fulfill_order(order_id, tracking_number, tracking_company) Create a fulfillment for an order.
cancel_order(order_id, reason, refund) Cancel an order.
get_customers(limit, next) Get customers or search them.
tag_customer(customer_id, tags) Add tags to a customer.
create_discount(title, code, value_type, value) Create a basic discount code.
create_draft_order(line_items, email) Create a draft order.
get_collections(limit) Get the product collections.

# hubspot
hubspot_create_contact(firstname, lastname, email, company) Create a new contact in HubSpot.
hubspot_search_contacts(query) Search contacts by name, email or company.
hubspot_update_contact(contact_id, properties) Update a contact's properties.
hubspot_create_company(name, domain) Create a company.
hubspot_create_deal(dealname, amount, pipeline, dealstage) Create a deal in a pipeline.
hubspot_update_deal_stage(deal_id, dealstage) Move a deal to another pipeline stage.
hubspot_create_note(object_id, body) Create a note on a contact, company or deal.
hubspot_get_recent_engagements(days) Get the recent engagements across contacts and companies.
hubspot_list_owners() List the owners of the HubSpot account.

# salesforce
salesforce_query_records(object_name, fields, where_clause, limit) Query records from a Salesforce object with a SOQL-like filter.
salesforce_dml_records(operation, object_name, records) Insert, update, delete or upsert records.
salesforce_describe_object(object_name) Get the fields and relationships of an object.
salesforce_search_all(search_term, objects) Search across several objects with SOSL.
salesforce_convert_lead(lead_id, converted_status) Convert a lead into an account, contact and opportunity.
salesforce_manage_field(object_name, field_name, type) Create or modify a custom field on an object.

# zendesk
get_ticket(ticket_id) Retrieve a Zendesk ticket by ID.
create_ticket_comment(ticket_id, comment, public) Add a public reply or internal note to a ticket.
update_ticket(ticket_id, status, priority, assignee_id) Update a ticket's fields.
search_tickets(query) Search tickets.
create_ticket(subject, description, requester_email) Open a new ticket.
get_macros() List the available macros.
search_help_center(query) Search articles of the help center knowledge base.

# intercom
list_conversations(state, limit) List conversations with customers.
reply_to_conversation(conversation_id, body) Reply to a conversation as an admin.
close_conversation(conversation_id) Close a conversation.
search_contacts(query) Search contacts.
add_tag_to_contact(contact_id, tag) Tag a contact.

# twilio
send_sms(to, from, body) Send an SMS message.
make_call(to, from, twiml) Place an outbound phone call.
list_messages(to, from, date_sent) List messages sent or received.
lookup_phone_number(phone_number, fields) Look up carrier and caller name information of a phone number.
send_verification(to, channel) Send a one-time verification code.
check_verification(to, code) Check a verification code.

# sendgrid
send_email(to, from, subject, text, html) Send an email through SendGrid.
list_templates() List the email templates.
add_contacts(list_id, contacts) Add contacts to a marketing list.
get_email_stats(start_date, end_date) Get delivery, open and click statistics.
create_single_send(name, template_id, list_ids, send_at) Create a marketing email campaign.

# kubernetes
pods_list(namespace, label_selector) List all the Kubernetes pods in the cluster or a namespace.
pods_get(namespace, name) Get a Kubernetes pod by name.
pods_delete(namespace, name) Delete a Kubernetes pod.
pods_log(namespace, name, container, previous) Get the logs of a Kubernetes pod.
pods_exec(namespace, name, command, container) Execute a command in a pod's container.
pods_run(namespace, image, name, port) Run a container image in a new pod.
pods_top(namespace, name) List the resource consumption (CPU and memory) of pods.
resources_list(api_version, kind, namespace) List Kubernetes resources of a kind.
resources_get(api_version, kind, namespace, name) Get a Kubernetes resource.
resources_create_or_update(resource) Create or update a Kubernetes resource from YAML or JSON.
resources_delete(api_version, kind, namespace, name) Delete a Kubernetes resource.
resources_scale(kind, namespace, name, replicas) Scale a deployment or stateful set.
rollout_restart(kind, namespace, name) Restart the rollout of a deployment.
rollout_undo(kind, namespace, name, to_revision) Roll back a deployment to a previous revision.
namespaces_list() List all the Kubernetes namespaces.
events_list(namespace) List the Kubernetes events of a namespace.
nodes_top() List the resource consumption of nodes.
configuration_view(minified) Get the current Kubernetes configuration (kubeconfig).
helm_install(chart, name, namespace, values) Install a Helm chart.
helm_list(namespace) List Helm releases.
helm_uninstall(name, namespace) Uninstall a Helm release.

# docker
list_containers(all) List Docker containers.
create_container(image, name, ports, environment) Create a new container.
run_container(image, name, ports, environment, command) Run an image in a new container.
stop_container(container_id) Stop a running container.
remove_container(container_id, force) Remove a container.
fetch_container_logs(container_id, tail) Fetch the logs of a container.
list_images() List Docker images.
pull_image(repository, tag) Pull an image from a registry.
build_image(path, tag, dockerfile) Build an image from a Dockerfile.
remove_image(image, force) Remove an image.
list_volumes() List Docker volumes.
list_networks() List Docker networks.
compose_up(project_path, services) Start the services of a compose file.

# aws
s3_list_buckets() List the S3 buckets of the account.
s3_list_objects(bucket, prefix) List the objects of a bucket.
s3_get_object(bucket, key) Get an object from a bucket.
s3_put_object(bucket, key, body, content_type) Upload an object to a bucket.
s3_delete_object(bucket, key) Delete an object.
s3_generate_presigned_url(bucket, key, expires_in) Generate a presigned URL that grants temporary access to an object.
lambda_list_functions() List Lambda functions.
lambda_invoke(function_name, payload) Invoke a Lambda function.
cloudwatch_get_metric_data(namespace, metric_name, dimensions, start, end) Get metric statistics from CloudWatch.
cloudwatch_query_logs(log_group, query, start, end) Run a CloudWatch Logs Insights query.
ec2_describe_instances(filters) Describe EC2 instances.
ec2_stop_instances(instance_ids) Stop EC2 instances.
cost_explorer_get_cost(start, end, granularity, group_by) Get the cost and usage of the account.
dynamodb_query(table_name, key_condition) Query a DynamoDB table.
iam_list_users() List IAM users.

# cloudflare
workers_list() List the Workers of an account.
worker_get_code(script_name) Get the source code of a Worker script.
worker_deploy(script_name, script) Deploy a Worker script.
kv_namespaces_list() List the KV namespaces.
kv_get(namespace_id, key) Read a value from Workers KV.
kv_put(namespace_id, key, value) Write a value to Workers KV.
r2_buckets_list() List R2 buckets.
d1_database_query(database_id, sql) Run a SQL query against a D1 database.
dns_records_list(zone_id) List the DNS records of a zone.
dns_record_create(zone_id, type, name, content, ttl) Create a DNS record.
zone_analytics(zone_id, since) Get traffic analytics of a zone.
purge_cache(zone_id, files) Purge cached content.

# vercel
list_projects() List the projects of the team.
list_deployments(project_id, state) List deployments.
get_deployment(deployment_id) Get a deployment's details.
get_deployment_build_logs(deployment_id) Get the build logs of a deployment.
create_deployment(project, target, git_ref) Create a new deployment.
promote_deployment(deployment_id) Promote a deployment to production.
add_domain(project_id, domain) Add a domain to a project.
set_environment_variable(project_id, key, value, target) Create or update an environment variable.

# supabase
list_projects() List all Supabase projects.
execute_sql(project_id, query) Execute raw SQL in the Postgres database.
apply_migration(project_id, name, query) Apply a migration to the database.
list_tables(project_id, schemas) List the tables of one or more schemas.
get_logs(project_id, service) Get logs for a service: api, postgres, auth, storage, realtime.
deploy_edge_function(project_id, name, files) Deploy an Edge Function.
generate_typescript_types(project_id) Generate TypeScript types from the database schema.
create_branch(project_id, name) Create a development branch.
get_advisors(project_id, type) Get security or performance advisory notices.

# terraform
search_providers(provider_name, service_slug) Search Terraform provider documentation.
get_provider_details(provider_doc_id) Get a provider resource's documentation.
search_modules(module_query) Search the Terraform registry for modules.
module_details(module_id) Get a module's inputs, outputs and examples.
plan(working_directory) Show the changes a plan would make.
apply(working_directory, auto_approve) Apply the planned changes.

# figma
get_file(file_key, depth) Get a Figma file's document tree.
get_node(file_key, node_id) Get a specific node of a file.
get_images(file_key, node_ids, format, scale) Render nodes as PNG, JPG, SVG or PDF images.
get_comments(file_key) Get the comments of a file.
post_comment(file_key, message, node_id) Post a comment on a file.
get_variables(file_key) Get the design tokens (variables) of a file.

# airtable
list_bases() List all accessible Airtable bases.
list_tables(base_id) List the tables of a base with their fields.
list_records(base_id, table_id, filter_by_formula, max_records) List records from a table.
search_records(base_id, table_id, search_term) Search records containing text.
create_record(base_id, table_id, fields) Create a new record in a table.
update_records(base_id, table_id, records) Update up to 10 records.
delete_records(base_id, table_id, record_ids) Delete records from a table.
create_field(base_id, table_id, name, type) Create a new field in a table.

# obsidian
list_files_in_vault() List all files and directories in the root of the vault.
get_file_contents(filepath) Return the content of a single file in the vault.
simple_search(query, context_length) Search for documents matching a text query across all files in the vault.
append_content(filepath, content) Append content to a new or existing file in the vault.
patch_content(filepath, operation, target_type, target, content) Insert content relative to a heading, block reference or frontmatter field.
delete_file(filepath) Delete a file or directory from the vault.
get_periodic_note(period) Get the current periodic note: daily, weekly, monthly.
get_recent_changes(limit, days) Get recently modified files in the vault.

# spotify
search(query, type, limit) Search for tracks, albums, artists or playlists on Spotify.
get_now_playing() Get information about the currently playing track.
play_music(uri, type, id) Start playing a track, album, artist or playlist.
pause_playback() Pause the playback.
skip_to_next() Skip to the next track.
add_to_queue(uri) Add a track to the playback queue.
create_playlist(name, description, public) Create a new playlist.
add_tracks_to_playlist(playlist_id, track_ids) Add tracks to a playlist.
set_volume(volume_percent) Set the playback volume.
get_recently_played(limit) Get the user's recently played tracks.

# youtube
search_videos(query, max_results, published_after) Search for YouTube videos.
get_video_details(video_id) Get a video's details and statistics.
get_transcript(video_id, language) Get the transcript (captions) of a video.
get_channel_statistics(channel_id) Get a channel's subscriber and view counts.
list_playlist_items(playlist_id) List the videos of a playlist.

# home_assistant
get_state(entity_id) Get the state of an entity.
turn_on(entity_id, brightness, color) Turn on a light, switch or other device.
turn_off(entity_id) Turn off a device.
set_climate_temperature(entity_id, temperature, hvac_mode) Set the target temperature of a thermostat.
call_service(domain, service, data) Call any Home Assistant service.
list_entities(domain, area) List entities, optionally in a domain or area.
trigger_automation(automation_id) Trigger an automation.
get_history(entity_id, start_time) Get the state history of an entity.

# everart
generate_image(prompt, model, count) Generate images from a text prompt.

# openai_tools
transcribe_audio(file, language) Transcribe speech in an audio file to text.
text_to_speech(text, voice) Turn text into spoken audio.
translate_text(text, target_language) Translate text into another language.

# arxiv
search_papers(query, max_results, categories, date_from) Search arXiv for research papers.
download_paper(paper_id) Download a paper and convert it to markdown.
read_paper(paper_id) Read the content of a downloaded paper.
list_papers() List the papers stored locally.

# wikipedia
search_wikipedia(query, limit) Search Wikipedia for articles.
get_article(title) Get the full content of a Wikipedia article.
get_summary(title) Get a summary of a Wikipedia article.

# travel
search_flights(origin, destination, departure_date, return_date, passengers) Search for flights between two airports.
book_flight(offer_id, passengers) Book a flight offer.
search_hotels(city, check_in, check_out, guests) Search for hotels in a city.
book_hotel(hotel_id, room_id, check_in, check_out) Book a hotel room.
cancel_booking(booking_id) Cancel a flight or hotel booking.
get_booking(booking_id) Get a booking's details.
search_car_rentals(location, pick_up, drop_off) Search for rental cars.

# opentable
search_restaurants(location, date, party_size, cuisine) Find restaurants with available tables.
make_reservation(restaurant_id, time, party_size, name) Reserve a table.
cancel_reservation(reservation_id) Cancel a reservation.

# finance
get_stock_price(symbol) Get the latest price of a stock.
get_historical_prices(symbol, start, end, interval) Get historical price data of a stock.
get_company_financials(symbol, statement) Get income statement, balance sheet or cash flow.
get_exchange_rate(from_currency, to_currency) Get the exchange rate between two currencies.
get_crypto_price(coin) Get the price of a cryptocurrency.

# calculator
calculate(expression) Evaluate a mathematical expression.
convert_units(value, from_unit, to_unit) Convert a value between units.

# pdf
pdf_extract_text(path, pages) Extract the text of a PDF.
pdf_merge(paths, output) Merge several PDF files into one.
pdf_fill_form(path, fields, output) Fill the form fields of a PDF.

# sequential_thinking
sequentialthinking(thought, next_thought_needed, thought_number, total_thoughts) A detailed tool for dynamic and reflective problem-solving through thoughts.
";

/// One tool of the catalogue.
#[derive(Clone, Debug)]
pub struct EvalTool {
    /// `<prefix>__<name>`, as an MCP import names it.
    pub name: String,
    /// The description the server publishes.
    pub description: String,
    /// The parameter names.
    pub parameters: Vec<String>,
}

impl EvalTool {
    /// The tool, registered deferred when `deferred`; every parameter an optional string.
    pub fn to_tool(&self, deferred: bool) -> FnTool {
        let mut schema = Schema::object();
        for parameter in &self.parameters {
            schema = schema.optional(parameter.clone(), Schema::string());
        }
        FnTool::builder(self.name.clone(), self.description.clone())
            .arguments(schema.build())
            .options(dsh_tools::call::ToolOptions {
                defer_loading: deferred,
                ..dsh_tools::call::ToolOptions::default()
            })
            .handler(|_, _| async { Ok(json!("ok")) })
    }
}

/// Every tool of every server, in the order written.
pub fn catalog() -> Vec<EvalTool> {
    let mut tools = Vec::new();
    let mut prefix = "";
    for line in SERVERS
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
    {
        if let Some(server) = line.strip_prefix("# ") {
            prefix = server;
            continue;
        }
        let (name, rest) = line
            .split_once('(')
            .expect("a tool line is name(params) text");
        let (parameters, description) = rest.split_once(')').expect("closing parenthesis");
        tools.push(EvalTool {
            name: format!("{prefix}__{name}"),
            description: description.trim().to_owned(),
            parameters: parameters
                .split(',')
                .map(str::trim)
                .filter(|parameter| !parameter.is_empty())
                .map(str::to_owned)
                .collect(),
        });
    }
    tools
}
